export { loginBanner } from './banner.ts'
export { runBaseline } from './commands/baseline.ts'
export { type DeadLetterClient, type DeadLetterSource, openDeadLetters } from './dead-letters.ts'
export { type EmbeddedOptions, type EmbeddedSystem, startEmbedded } from './embedded.ts'
export { type Fleet, type FleetChild, type FleetOptions, namespaced, REPO_ROOT, startFleet } from './fleet.ts'
export { type DroppedNamespace, dropNamespace, type NamespaceEngines } from './namespace.ts'
export { freePort, portRange, waitForOk } from './ports.ts'
export { findSecret, resolveSecret } from './secrets.ts'
export type { DemoAccount, DemoSeed } from './seed.ts'
export { type MintOptions, mintServiceToken } from './service-token.ts'
export { rebuildStats, type StatsRebuildOptions, type StatsRebuildReport } from './stats-rebuild.ts'
export {
  GATEWAY,
  loadUnit,
  mainOf,
  type RunnableUnit,
  SERVICES,
  type UnitModule,
  upstreamEnvOf,
} from './units.ts'
