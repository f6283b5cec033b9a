import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { BUILT_SERVICES, UNITS, type UnitEntry, upstreamEnvOf } from '@switchboard/contracts'
import type { EventBus } from '@switchboard/events'
import type { Cache, Logger } from '@switchboard/platform'

/** The repository root (this file is packages/cli/src/units.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** A unit a runner can start: a registry line with a folder (or a throw-away one, in the template test). */
export interface RunnableUnit extends UnitEntry {
  readonly dir: string
}

/** The services the runners start by default, in registry order (the gateway comes last: it needs their addresses). */
export const SERVICES: readonly RunnableUnit[] = BUILT_SERVICES.map((name) => UNITS[name])
export const GATEWAY: RunnableUnit = UNITS.gateway

export { upstreamEnvOf }

export interface UnitDeps {
  logger: Logger
  bus?: EventBus
  cache?: Cache
}

/** The part of a Fastify instance a runner uses (kept structural so the CLI needs no Fastify of its own). */
export interface UnitApp {
  listen(opts: { host: string; port: number }): Promise<string>
  close(): Promise<unknown>
  server: { address(): unknown }
}

/**
 * What every unit's `src/index.ts` exports: a pure config loader and a builder of an un-listened app; a
 * service also exports its descriptor as `service` (whose optional `seed` the runners call).
 */
export interface UnitModule {
  loadConfig(env: NodeJS.ProcessEnv): any
  build(config: any, deps: UnitDeps): Promise<UnitApp>
  service?: { seed?(app: UnitApp, opts: Record<string, string | undefined>): Promise<unknown> }
  [name: string]: unknown
}

/** `<dir>/src/main.ts`: what `npm run fleet` and the container entrypoint run for one replica. */
export const mainOf = (unit: RunnableUnit) => (unit.dir.startsWith('/') ? unit.dir : join(REPO_ROOT, unit.dir))

/**
 * Loads a unit's `src/index.ts` by path, lazily, so a command that needs one unit does not load them all and
 * a unit outside the workspace (the template test's) loads the same way.
 */
export async function loadUnit(unit: RunnableUnit): Promise<UnitModule> {
  const file = join(mainOf(unit), 'src/index.ts')
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  if (typeof mod.build !== 'function' || typeof mod.loadConfig !== 'function') {
    throw new Error(`${file} does not export build(config, deps) and loadConfig(env)`)
  }
  return mod as UnitModule
}
