import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { createMemoryBus, type EventBus, type MemoryRetention } from '@switchboard/events'
import {
  busRetention,
  busRetentionFromEnv,
  type Cache,
  ConfigError,
  createCache,
  createRootLogger,
  type Logger,
  startTracing,
  tracingConfigFromEnv,
} from '@switchboard/platform'
import { consoleDirEnv } from './console-status.ts'
import { awaitUnits } from './readiness.ts'
import { type ResolvedSecret, randomSecret, resolveSecret } from './secrets.ts'
import { type DemoSeed, seedUnits } from './seed.ts'
import {
  GATEWAY,
  loadUnit,
  type RunnableUnit,
  SERVICES,
  type UnitApp,
  type UnitModule,
  upstreamEnvOf,
} from './units.ts'

export interface EmbeddedOptions {
  /** the gateway's port (0 picks a free one) */
  port?: number
  /** the gateway's interface; services always listen on loopback */
  host?: string
  /** SQLite files (one per service) and generated secrets */
  dataDir?: string
  /** read for JWT_SECRET[_FILE], INTERNAL_SECRET[_FILE], ADMIN_USERNAME/PASSWORD and every unit's own settings */
  env?: NodeJS.ProcessEnv
  logger?: Logger
  /** seed the demo tenant (default true) */
  seed?: boolean
  /** run only these services, by name (default: every built service); the gateway answers 503 for the others */
  services?: readonly string[]
  /** units beyond the registry's, started like them (their prefixes go in GATEWAY_EXTRA_ROUTES) */
  extraUnits?: readonly RunnableUnit[]
  /** the agent console's build the gateway serves at / (default CONSOLE_DIR, else the repository's apps/console/dist) */
  consoleDir?: string
}

export interface EmbeddedSystem {
  /** the gateway's base URL */
  url: string
  /** each service's own loopback address, by name */
  serviceUrls: Record<string, string>
  /** tenant, workspace and the accounts the seed made (or found) */
  seeded: DemoSeed | undefined
  secrets: { jwt: ResolvedSecret; internal: ResolvedSecret }
  dataDir: string
  /**
   * the one in-process bus every unit shares; each unit takes it through a view counting into its own /metrics
   * (events `busWithMetrics`, platform `buildService`), while what is published through this one counts on no unit
   */
  bus: EventBus
  cache: Cache
  /** gateway first (stop taking requests), then the services, then the bus and cache */
  close(): Promise<void>
}

/** Settings the embedded mode decides for every unit; anything else in `env` passes through. */
function unitEnv(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  secrets: { jwt: string; internal: string },
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    DB_DRIVER: 'sqlite',
    DATA_DIR: dataDir,
    CACHE_DRIVER: 'memory',
    BUS_DRIVER: 'memory',
    HOST: '127.0.0.1',
    PORT: '0',
    JWT_SECRET: secrets.jwt,
    INTERNAL_SECRET: secrets.internal,
  }
  // Resolved above; a leftover *_FILE would win over the value we hand every unit.
  // The runner seeds once itself (with the passwords it can print), not each unit on its own.
  for (const k of ['JWT_SECRET_FILE', 'INTERNAL_SECRET_FILE', 'SQLITE_FILE', 'SEED_DEMO']) delete out[k]
  return out
}

/**
 * What the in-process bus keeps (packages/events/README.md, "Retention"): the ages the fleet's streams take
 * (`EVENTS_RETENTION_DAYS`, `EVENTS_DLQ_RETENTION_DAYS`) and the acknowledged messages kept per stream
 * (`EVENTS_MEMORY_MAX_MESSAGES`, default 10,000; 0: all). A bad value stops the start with the variable's name.
 */
export function memoryBusRetention(env: NodeJS.ProcessEnv): MemoryRetention {
  const { streams, deadLetters } = busRetention(busRetentionFromEnv(env))
  const raw = env.EVENTS_MEMORY_MAX_MESSAGES?.trim()
  if (!raw) return { streams, deadLetters }
  if (!/^\d+$/.test(raw) || Number(raw) > Number.MAX_SAFE_INTEGER) {
    throw new ConfigError(`invalid configuration:\n  EVENTS_MEMORY_MAX_MESSAGES: expected a whole number, got "${raw}"`)
  }
  return { streams, deadLetters, maxMessages: Number(raw) }
}

function addressOf(app: UnitApp): string {
  const addr = app.server.address() as { address: string; port: number; family: string } | string | null
  if (!addr || typeof addr === 'string') throw new Error('unit is not listening on TCP')
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${addr.port}`
}

/**
 * The embedded default: the gateway and every service in this process, each Fastify instance on its own
 * loopback port and the gateway calling them over HTTP as in production; SQLite files under `dataDir`,
 * one in-memory cache and one in-process bus shared by every unit.
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedSystem> {
  const env = opts.env ?? process.env
  const dataDir = resolve(opts.dataDir ?? env.DATA_DIR ?? './data')
  mkdirSync(dataDir, { recursive: true })
  const logger = opts.logger ?? createRootLogger({ level: env.LOG_LEVEL ?? 'info' })
  const secrets = {
    jwt: resolveSecret(env, 'JWT_SECRET', dataDir),
    // 32 bytes is ample and satisfies the services' minimum length.
    internal: resolveSecret(env, 'INTERNAL_SECRET', dataDir, () => randomSecret(32)),
  }
  const shared = unitEnv(env, dataDir, { jwt: secrets.jwt.value, internal: secrets.internal.value })
  // read before anything is started, so that a bad value stops nothing half-made
  const retention = memoryBusRetention(env)
  // one process, one tracer provider for every unit (spans name their unit); on before the bus and units are made
  const tracing = await startTracing(tracingConfigFromEnv(env, 'switchboard'))
  const bus = createMemoryBus({ logger: logger.child({ unit: 'bus' }), retention })
  const cache = createCache({ driver: 'memory', prefix: env.CACHE_PREFIX ?? 'sb:' })
  const started: UnitApp[] = []
  const closeAll = async () => {
    // started holds services first and the gateway last: closing in reverse stops the entry point first.
    for (const app of started.reverse()) await app.close().catch((err) => logger.warn({ err }, 'close failed'))
    started.length = 0
    await bus.close().catch(() => {})
    await cache.close().catch(() => {})
    await tracing.shutdown()
  }
  try {
    const serviceUrls: Record<string, string> = {}
    const services = [
      ...SERVICES.filter((s) => !opts.services || opts.services.includes(s.name)),
      ...(opts.extraUnits ?? []),
    ]
    const upstreams: NodeJS.ProcessEnv = {}
    const apps: Array<{ unit: RunnableUnit; module: UnitModule; app: UnitApp }> = []
    for (const unit of services) {
      const module = await loadUnit(unit)
      // the services started before this one, by the UPSTREAM_<SERVICE> the gateway reads (registry order)
      const app = await module.build(module.loadConfig({ ...shared, ...upstreams }), { logger, bus, cache })
      started.push(app)
      apps.push({ unit, module, app })
      await app.listen({ host: '127.0.0.1', port: 0 })
      serviceUrls[unit.name] = addressOf(app)
      upstreams[upstreamEnvOf(unit.name)] = serviceUrls[unit.name]
    }
    const gateway = await loadUnit(GATEWAY)
    const gatewayConfig = gateway.loadConfig({
      ...shared,
      ...upstreams,
      ...consoleDirEnv(opts.consoleDir ?? env.CONSOLE_DIR),
      // the demo website with the widget (/demo) is part of trying Switchboard out: on here unless turned off
      DEMO_SITE: env.DEMO_SITE ?? 'true',
      HOST: opts.host ?? env.HOST ?? '127.0.0.1',
      PORT: String(opts.port ?? env.PORT ?? 8080),
    })
    const gatewayApp = await gateway.build(gatewayConfig, { logger, bus, cache })
    started.push(gatewayApp)
    await gatewayApp.listen({ host: opts.host ?? env.HOST ?? '127.0.0.1', port: opts.port ?? Number(env.PORT ?? 8080) })
    const url = addressOf(gatewayApp)
    // Each unit is live once it listens and starts its consumers in the background: ready before the seed, and
    // before the caller takes traffic (a slow one is waited for and reported, never failed).
    await awaitUnits(
      [...Object.entries(serviceUrls).map(([name, u]) => ({ name, url: u })), { name: 'gateway', url }],
      { logger },
    )
    const seeded = opts.seed === false ? undefined : await seedUnits(apps, { env, logger, dataDir })
    return { url, serviceUrls, seeded, secrets, dataDir, bus, cache, close: closeAll }
  } catch (err) {
    await closeAll()
    throw err
  }
}
