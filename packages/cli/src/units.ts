import type { EventBus } from '@switchboard/events'
import type { Cache, Logger } from '@switchboard/platform'

/** The services the gateway fronts, in start order (the gateway comes last, it needs their addresses). */
export const SERVICES = ['identity', 'tickets', 'audit'] as const
export type ServiceName = (typeof SERVICES)[number]
export type UnitName = ServiceName | 'gateway'

export interface UnitInfo {
  /** package directory from the repository root; `node <dir>/src/main.ts` runs one replica */
  dir: string
  /** the unit's own default port (production and `npm run fleet`) */
  port: number
  /** the gateway's environment variable that lists this service's replicas */
  upstreamEnv?: string
}

export const UNITS: Record<UnitName, UnitInfo> = {
  identity: { dir: 'services/identity', port: 8101, upstreamEnv: 'UPSTREAM_IDENTITY' },
  tickets: { dir: 'services/tickets', port: 8102, upstreamEnv: 'UPSTREAM_TICKETS' },
  audit: { dir: 'services/audit', port: 8103, upstreamEnv: 'UPSTREAM_AUDIT' },
  gateway: { dir: 'gateway', port: 8080 },
}

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

/** What every unit exports (STYLE.md): a pure config loader and a builder of an un-listened Fastify app. */
export interface UnitModule {
  loadConfig(env: NodeJS.ProcessEnv): any
  build(config: any, deps: UnitDeps): Promise<UnitApp>
  [name: string]: unknown
}

const PACKAGES: Record<UnitName, string> = {
  identity: '@switchboard/identity',
  tickets: '@switchboard/tickets',
  audit: '@switchboard/audit',
  gateway: '@switchboard/gateway',
}

async function tryImport(specifier: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(specifier)) as Record<string, unknown>
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      // Only "this file does not exist" is a reason to look elsewhere; a broken module must surface.
      if (String((err as Error).message).includes(specifier.split('/').pop()!)) return undefined
    }
    throw err
  }
}

/**
 * Loads a unit's `build` and `loadConfig`: from its `src/index.ts`, else from `src/build.ts` + `src/config.ts`.
 * Imported lazily (by name, not statically) so a command that needs one unit does not load them all.
 */
export async function loadUnit(name: UnitName): Promise<UnitModule> {
  const pkg = PACKAGES[name]
  const merged: Record<string, unknown> = {}
  for (const file of ['index.ts', 'build.ts', 'config.ts']) {
    const mod = await tryImport(`${pkg}/${file}`)
    if (mod) for (const [k, v] of Object.entries(mod)) if (!(k in merged)) merged[k] = v
    if (typeof merged.build === 'function' && typeof merged.loadConfig === 'function') break
  }
  if (typeof merged.build !== 'function' || typeof merged.loadConfig !== 'function') {
    throw new Error(
      `${pkg} does not export build(config, deps) and loadConfig(env) (looked in src/index.ts, build.ts, config.ts)`,
    )
  }
  return merged as UnitModule
}
