export { aiOrchestrator, aiOrchestrator as service, build } from './build.ts'
export { AiConfig, loadConfig } from './config.ts'
export type { AiService } from './context.ts'
