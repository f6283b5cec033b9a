export { build, identity as service, identity } from './build.ts'
export {
  denyToken,
  publishSessionTokenState,
  publishUserTokenState,
  revokeSession,
  revokeUserSessions,
  revokeUserTokens,
  setUserRole,
  setUserStatus,
} from './commands/revocation.ts'
export { DEMO_SCOPE, type SeedOptions, type SeedResult, seedDemo } from './commands/seed.commands.ts'
export { IdentityConfig, loadConfig } from './config.ts'
export type { IdentityExtras, IdentityService } from './context.ts'
export { IdentityErrors } from './errors.ts'
export { cleanupDenylist } from './workers/denylist-cleanup.worker.ts'
