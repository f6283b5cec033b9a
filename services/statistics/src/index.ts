export { build, statistics as service, statistics } from './build.ts'
export { loadConfig, StatisticsConfig } from './config.ts'
export type { StatisticsService } from './context.ts'
