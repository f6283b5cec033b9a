export { build, conversations as service, conversations } from './build.ts'
export { ConversationsConfig, loadConfig } from './config.ts'
export type { ConversationsService } from './context.ts'
