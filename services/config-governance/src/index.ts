export { build, configGovernance as service, configGovernance } from './build.ts'
export { ConfigGovernanceConfig, loadConfig } from './config.ts'
export type { ConfigGovernanceService } from './context.ts'
