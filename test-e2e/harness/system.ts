import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dropNamespace, type RunnableUnit, SERVICES, startEmbedded, startFleet } from '@switchboard/cli'
import { DEFAULT_RATE_LIMITS } from '@switchboard/gateway'
import { createDatabase, createRootLogger, type Database } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'

export type Mode = 'embedded' | 'fleet'
export const MODES: readonly Mode[] = ['embedded', 'fleet']

export interface Account {
  username: string
  password: string
}

/** One running Switchboard, reached only through its gateway's URL. */
export interface System {
  mode: Mode
  url: string
  /** every gateway replica (the fleet may run several; the embedded default has one, `url`) */
  gatewayUrls: string[]
  /** each service's own base URLs, by name (every replica in the fleet) */
  serviceUrls: Record<string, string[]>
  tenant_id: string
  workspace_id: string
  admin: Account
  agent: Account
  env: NodeJS.ProcessEnv
  /** arguments that point `switchboard dlq …` at this system's dead letters */
  dlqArgs(adminToken: string): string[]
  /** this service's own database, opened from the test (SQLite file or PostgreSQL schema) */
  serviceDatabase(service: string): Promise<Database<any>>
  /**
   * The fleet only: kills replica `index` (0-based) of `unit` outright (SIGKILL: no shutdown, no close frames),
   * resolving once the process is gone; answers the replica's base URL. The embedded default has no replicas.
   */
  kill?(unit: string, index: number): Promise<string>
  /** The fleet only: starts a killed replica again (same port and environment), resolving once it is ready. */
  restart?(unit: string, index: number): Promise<string>
  close(): Promise<void>
}

export interface SystemOptions {
  /** extra environment for every unit (e.g. a low rate limit) */
  env?: NodeJS.ProcessEnv
  replicas?: number
  /** gateway replicas in the fleet (default: `replicas`); the embedded default always has one */
  gatewayReplicas?: number
  /** the fleet: replicas of a service by name, instead of `replicas` (e.g. `{ 'realtime-voice': 2 }`) */
  replicasOf?: Readonly<Record<string, number>>
  /** the fleet: how long a unit may take to listen and answer /health before the start fails (default 180 s) */
  liveTimeoutMs?: number
  /** units beyond the registry's (the template test's throw-away service) */
  extraUnits?: readonly RunnableUnit[]
  /** registry services not to start (a test putting a stand-in of its own in their place) */
  without?: readonly string[]
}

const engines = engineUrls()

/**
 * How long a fleet's unit may take to listen before its start counts as failed. Starting nine Node processes on two
 * cores while other test files run takes its time (seen: over 60 s at a load average of 25–40); a unit that is only
 * slow is waited for, as readiness is (packages/cli/src/readiness.ts), and one that exits fails at once anyway.
 */
const FLEET_LIVE_TIMEOUT_MS = 180_000

/** A header key with a tiny limit: only requests that carry it count, so one test can hit 429 without starving the rest. */
export const LIMITED_HEADER = 'x-e2e-bucket'
export const LIMITED_PER_MINUTE = 3

/**
 * The environment the tests run the system with: generated secrets, known demo passwords, cheap (still real)
 * argon2, generous per-client limits (every request comes from 127.0.0.1) plus one tiny header-keyed limit.
 */
export function testEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const limits = {
    ...DEFAULT_RATE_LIMITS,
    global: { requests_per_minute: 100_000, burst: 10_000 },
    prefixes: DEFAULT_RATE_LIMITS.prefixes.map((p) => ({ ...p, requests_per_minute: 100_000, burst: 10_000 })),
    header_keys: [{ header: LIMITED_HEADER, requests_per_minute: LIMITED_PER_MINUTE, burst: LIMITED_PER_MINUTE }],
  }
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: engines.databaseUrl,
    REDIS_URL: engines.redisUrl,
    NATS_URL: engines.natsUrl,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    INTERNAL_SECRET: randomBytes(32).toString('base64url'),
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: `Adm-${randomBytes(9).toString('base64url')}`,
    AGENT_USERNAME: 'agent',
    AGENT_PASSWORD: `Agt-${randomBytes(9).toString('base64url')}`,
    ARGON2_MEMORY_COST_KIB: '1024',
    ARGON2_TIME_COST: '1',
    RATE_LIMITS_JSON: JSON.stringify(limits),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // a failing audit consumer reaches the dead-letter stream in about a second instead of ~20 s
    AUDIT_CONSUMER_MAX_DELIVER: '3',
    AUDIT_CONSUMER_BACKOFF_MS: '100,200',
    // the tests' stand-ins of AI providers listen on 127.0.0.1: a tenant's or workspace's own AI endpoint may reach
    // that address only as the operator allows (not 127.0.0.2, which a test uses for one it must not reach)
    AI_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    // a console build of one's own (several engineers build and test the console at once)
    ...(process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {}),
    ...extra,
  }
}

function accounts(env: NodeJS.ProcessEnv) {
  return {
    admin: { username: env.ADMIN_USERNAME!, password: env.ADMIN_PASSWORD! },
    agent: { username: env.AGENT_USERNAME!, password: env.AGENT_PASSWORD! },
  }
}

const servicesWithout = (without: readonly string[] | undefined) =>
  without ? SERVICES.map((s) => s.name).filter((n) => !without.includes(n)) : undefined

/** The embedded default in this process: port 0, a temporary DATA_DIR (removed on close). */
async function embedded(opts: SystemOptions): Promise<System> {
  const env = testEnv(opts.env)
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-e2e-'))
  // stdout belongs to TAP; unit logs go to stderr.
  const logger = createRootLogger({ level: env.LOG_LEVEL, destination: process.stderr })
  const system = await startEmbedded({
    port: 0,
    dataDir,
    env,
    logger,
    extraUnits: opts.extraUnits,
    services: servicesWithout(opts.without),
  }).catch((err) => {
    rmSync(dataDir, { recursive: true, force: true })
    throw err
  })
  return {
    mode: 'embedded',
    url: system.url,
    gatewayUrls: [system.url],
    serviceUrls: Object.fromEntries(Object.entries(system.serviceUrls).map(([k, v]) => [k, [v]])),
    tenant_id: system.seeded!.tenant_id,
    workspace_id: system.seeded!.workspace_id,
    ...accounts(env),
    env,
    dlqArgs: (token) => ['--gateway', system.url, '--token', token],
    serviceDatabase: (service) =>
      createDatabase({ driver: 'sqlite', file: join(dataDir, `${service}.sqlite`) }, logger),
    close: async () => {
      await system.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The fleet as child processes on the real engines, isolated by a namespace that is dropped on close. */
async function fleet(opts: SystemOptions): Promise<System> {
  const env = testEnv(opts.env)
  const namespace = uniqueId('e2e')
  const logger = createRootLogger({ level: env.LOG_LEVEL, destination: process.stderr })
  const tail: string[] = []
  const output = (line: string) => {
    tail.push(line)
    if (tail.length > 200) tail.shift()
    process.stderr.write(`${line}\n`)
  }
  // The ports are picked free and bound by the children a moment later; another test file's process can take one
  // meanwhile (the start then fails, naming EADDRINUSE): start again on fresh ports, a few times.
  const start = (attempt: number): ReturnType<typeof startFleet> =>
    startOnce().catch(async (err: Error) => {
      await dropNamespace(namespace, engines).catch(() => {})
      if (attempt >= 3 || !/EADDRINUSE/.test(err.message)) throw err
      logger.warn({ attempt }, 'a port the fleet picked was taken meanwhile; starting again on fresh ports')
      return start(attempt + 1)
    })
  const startOnce = () =>
    startFleet({
      replicas: opts.replicas ?? 1,
      ...(opts.gatewayReplicas ? { gatewayReplicas: opts.gatewayReplicas } : {}),
      ...(opts.replicasOf ? { replicasOf: opts.replicasOf } : {}),
      liveTimeoutMs: opts.liveTimeoutMs ?? FLEET_LIVE_TIMEOUT_MS,
      port: 0,
      servicePort: 0,
      namespace,
      env,
      output,
      logger,
      extraUnits: opts.extraUnits,
      services: servicesWithout(opts.without),
    })
  const running = await start(1)
  return {
    mode: 'fleet',
    url: running.gatewayUrls[0]!,
    gatewayUrls: running.gatewayUrls,
    serviceUrls: running.serviceUrls,
    tenant_id: running.seeded!.tenant_id,
    workspace_id: running.seeded!.workspace_id,
    ...accounts(env),
    env,
    dlqArgs: () => ['--nats', engines.natsUrl, '--prefix', namespace],
    // the fleet's schema names write a unit's hyphens as underscores (packages/cli/src/fleet.ts, namespaced)
    serviceDatabase: (service) =>
      createDatabase(
        {
          driver: 'postgres',
          url: engines.databaseUrl,
          schema: `${namespace}_${service.replaceAll('-', '_')}`,
          pool_max: 1,
        },
        logger,
      ),
    kill: async (unit, index) => {
      const child = running.children.find((c) => c.name === `${unit}.${index + 1}`)
      if (!child) throw new Error(`no replica ${index} of ${unit} in this fleet`)
      const proc = child.process
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((resolve) => proc.once('exit', resolve))
        proc.kill('SIGKILL')
        await exited
      }
      return child.url
    },
    restart: async (unit, index) => (await running.restart(`${unit}.${index + 1}`)).url,
    close: async () => {
      await running.close()
      await dropNamespace(namespace, engines)
    },
  }
}

export function startSystem(mode: Mode, opts: SystemOptions = {}): Promise<System> {
  return mode === 'embedded' ? embedded(opts) : fleet(opts)
}
