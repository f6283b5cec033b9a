export { build, type IdentityApp } from './build.ts'
export { DEFAULT_PORT, IdentityConfig, loadConfig } from './config.ts'
export type { IdentityContext } from './context.ts'
export {
  denyToken,
  publishSessionTokenState,
  publishUserTokenState,
  revokeSession,
  revokeUserSessions,
  revokeUserTokens,
  setUserRole,
  setUserStatus,
} from './domain/revocation.ts'
export { IdentityErrors } from './errors.ts'
export { DEMO_SCOPE, type SeedOptions, type SeedResult, seedDemo } from './seed.ts'
export { cleanupDenylist } from './workers/denylist-cleanup.ts'
