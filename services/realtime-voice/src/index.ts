export { build, realtimeVoice as service, realtimeVoice } from './build.ts'
export { loadConfig, RealtimeConfig } from './config.ts'
export type { RealtimeService } from './context.ts'
