/** The conversation feature's public surface: the page the app routes `/conversations/:id` to. */
export { ConversationView } from './conversation-view.tsx'
