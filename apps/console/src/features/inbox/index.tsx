export { Inbox } from './inbox.tsx'
