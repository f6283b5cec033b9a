import { type ChildProcess, spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { createRootLogger, LISTENING_MESSAGE, type Logger } from '@switchboard/platform'
import { consoleDirEnv } from './console-status.ts'
import { portRange } from './ports.ts'
import { awaitUnits } from './readiness.ts'
import { resolveSecret } from './secrets.ts'
import { type DemoSeed, seedOneOff } from './seed.ts'
import { GATEWAY, mainOf, REPO_ROOT, type RunnableUnit, SERVICES, upstreamEnvOf } from './units.ts'

export { REPO_ROOT }

/** Lines of a child's output kept to report why it failed. */
const TAIL_LINES = 20

/** Node arguments that make a spawned unit (given an 'ipc' stdio slot) stop when the runner is gone. */
export const FOLLOW_PARENT = ['--import', new URL('./follow-parent.ts', import.meta.url).href]

/** The runner's compiled-code cache (NODE_COMPILE_CACHE, scripts/toolchain.sh) for its children too. */
const compileCache = (): NodeJS.ProcessEnv =>
  process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}

export interface FleetOptions {
  /** replicas of each service (default 1) */
  replicas?: number
  /** gateway replicas (default: same as replicas) */
  gatewayReplicas?: number
  /** replicas of a service by name, instead of `replicas` (e.g. `{ 'realtime-voice': 2 }` beside 1 of the others) */
  replicasOf?: Readonly<Record<string, number>>
  /** first gateway port (default PORT or 8080); 0 picks free ports */
  port?: number
  /** first service port (default 8101); the services' replicas take consecutive ports in order; 0 picks free ports */
  servicePort?: number
  /** base environment for every child (DATABASE_URL, REDIS_URL, NATS_URL, JWT_SECRET, …) */
  env?: NodeJS.ProcessEnv
  /** isolates this fleet: DB schemas `<ns>_<service>`, Redis prefix `<ns>:`, NATS prefix `<ns>` */
  namespace?: string
  /** where a generated JWT/internal secret is kept when none is given (default DATA_DIR or ./data) */
  dataDir?: string
  /** the agent console's build the gateways serve at / (default CONSOLE_DIR, else the repository's apps/console/dist) */
  consoleDir?: string
  /** each child's output line, already prefixed; default: written to this process's stdout */
  output?: (line: string, unit: string) => void
  logger?: Logger
  seed?: boolean
  /** a unit that does not answer `/health` by then has failed and the fleet is stopped (default 60 s) */
  liveTimeoutMs?: number
  /**
   * a bound on a unit's readiness, past which the fleet fails; by default none: a unit slow to be ready is waited
   * for and reported every `reportEveryMs`, and never takes the others down
   */
  readyTimeoutMs?: number
  /** how often a unit still not ready is reported (default 15 s) */
  reportEveryMs?: number
  /** run only these services, by name (default: every built service) */
  services?: readonly string[]
  /** units beyond the registry's, started like them (their prefixes go in GATEWAY_EXTRA_ROUTES) */
  extraUnits?: readonly RunnableUnit[]
}

export interface FleetChild {
  /** the unit's name (`identity`, `gateway`) */
  unit: string
  /** `identity.1`, `gateway.2`, … */
  name: string
  url: string
  process: ChildProcess
}

export interface Fleet {
  gatewayUrls: string[]
  serviceUrls: Record<string, string[]>
  children: FleetChild[]
  namespace: string | undefined
  /** the environment every child got, plus, per service, DB_SCHEMA (see `unitEnv`) */
  env: NodeJS.ProcessEnv
  unitEnv(unit: string): NodeJS.ProcessEnv
  seeded: DemoSeed | undefined
  /**
   * Starts a replica again (`identity.2`, `gateway.1`) — one that exited or was killed — on its port, with its
   * environment; resolves once it is ready (`npm run bench -- chaos`). Its entry in `children` is the new process.
   */
  restart(name: string): Promise<FleetChild>
  /** SIGTERM to the gateways, then the services; SIGKILL to anything still alive after the grace period */
  close(): Promise<void>
}

/** Per-unit isolation settings derived from the namespace (or the plain defaults without one). */
export function namespaced(env: NodeJS.ProcessEnv, unit: string, namespace: string | undefined): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  const schema = unit.replaceAll('-', '_')
  if (namespace) {
    out.DB_SCHEMA = `${namespace}_${schema}`
    out.CACHE_PREFIX = `${namespace}:`
    out.NATS_PREFIX = namespace
  } else {
    out.DB_SCHEMA = env.DB_SCHEMA_PREFIX ? `${env.DB_SCHEMA_PREFIX}${schema}` : schema
  }
  return out
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(timer)
      done()
    })
    child.kill('SIGTERM')
  })
}

/**
 * `npm run fleet`: one child process per service replica and per gateway replica (`node <unit>/src/main.ts`)
 * on PostgreSQL, Redis and NATS JetStream; the gateway's UPSTREAM_<SERVICE> lists every replica. Resolves
 * once every child answers /ready and the demo tenant is seeded. A child slow to be ready is waited for (and
 * reported); one that exits while the fleet starts fails it, named with its last lines, and every unit is stopped.
 */
export async function startFleet(opts: FleetOptions = {}): Promise<Fleet> {
  const base = opts.env ?? process.env
  const replicas = opts.replicas ?? 1
  const gatewayReplicas = opts.gatewayReplicas ?? replicas
  const namespace = opts.namespace
  const logger = opts.logger ?? createRootLogger({ level: base.LOG_LEVEL ?? 'info' })
  const dataDir = resolve(opts.dataDir ?? base.DATA_DIR ?? './data')
  const output = opts.output ?? ((line: string) => process.stdout.write(`${line}\n`))
  const env: NodeJS.ProcessEnv = {
    ...base,
    DB_DRIVER: 'postgres',
    DATABASE_URL: base.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    REDIS_URL: base.REDIS_URL ?? 'redis://127.0.0.1:6379',
    NATS_URL: base.NATS_URL ?? 'nats://127.0.0.1:4222',
    JWT_SECRET: resolveSecret(base, 'JWT_SECRET', dataDir).value,
    INTERNAL_SECRET: resolveSecret(base, 'INTERNAL_SECRET', dataDir).value,
  }
  for (const k of ['JWT_SECRET_FILE', 'INTERNAL_SECRET_FILE', 'CACHE_DRIVER', 'BUS_DRIVER', 'SQLITE_FILE'])
    delete env[k]
  const unitEnv = (unit: string): NodeJS.ProcessEnv => ({ ...env, ...namespaced(base, unit, namespace) })

  const services = [
    ...SERVICES.filter((s) => !opts.services || opts.services.includes(s.name)),
    ...(opts.extraUnits ?? []),
  ]
  const counts = services.map((s) => opts.replicasOf?.[s.name] ?? replicas)
  const total = counts.reduce((a, b) => a + b, 0)
  const servicePorts = await portRange(opts.servicePort ?? 8101, total)
  const gatewayPorts = await portRange(opts.port ?? Number(base.PORT ?? 8080), gatewayReplicas)
  const serviceUrls: Record<string, string[]> = {}
  let next = 0
  services.forEach((s, k) => {
    serviceUrls[s.name] = servicePorts.slice(next, next + counts[k]!).map((p) => `http://127.0.0.1:${p}`)
    next += counts[k]!
  })
  const gatewayUrls = gatewayPorts.map((p) => `http://127.0.0.1:${p}`)
  const upstreams: NodeJS.ProcessEnv = {}
  for (const s of services) upstreams[upstreamEnvOf(s.name)] = serviceUrls[s.name]!.join(',')

  const children: FleetChild[] = []
  const exits = new Map<string, string>()
  // each child's last lines, to say why a unit that exited during the start failed
  const tails = new Map<string, string[]>()
  // children that said they listen (their own port, not one another process took after portRange picked it)
  const listening = new Set<string>()
  // how each child was spawned, to spawn it again (restart)
  const respawn = new Map<string, () => void>()
  const spawnUnit = (unit: RunnableUnit, index: number, url: string, extra: NodeJS.ProcessEnv) => {
    const name = `${unit.name}.${index + 1}`
    respawn.set(name, () => spawnUnit(unit, index, url, extra))
    listening.delete(name)
    exits.delete(name)
    const port = new URL(url).port
    const child = spawn(process.execPath, [...FOLLOW_PARENT, join(mainOf(unit), 'src/main.ts')], {
      cwd: REPO_ROOT,
      env: { ...compileCache(), ...unitEnv(unit.name), ...extra, HOST: '127.0.0.1', PORT: port, REPLICA_ID: name },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    const pad = name.padEnd(10)
    const tail: string[] = []
    tails.set(name, tail)
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => {
        tail.push(line)
        if (tail.length > TAIL_LINES) tail.shift()
        output(`${pad}| ${line}`, name)
      })
    }
    child.once('exit', (code, signal) => exits.set(name, `exited (${signal ?? code})`))
    child.on('message', (m: { type?: string } | null) => {
      if (m?.type === LISTENING_MESSAGE) listening.add(name)
    })
    const entry = { unit: unit.name, name, url, process: child }
    const at = children.findIndex((c) => c.name === name)
    if (at >= 0) children[at] = entry
    else children.push(entry)
  }

  // If this process dies without close() (a crashed test run), its children must not outlive it.
  const orphanGuard = () => {
    for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL')
  }
  process.once('exit', orphanGuard)

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      process.removeListener('exit', orphanGuard)
      const gateways = children.filter((c) => c.unit === 'gateway')
      const services = children.filter((c) => c.unit !== 'gateway')
      await Promise.all(gateways.map((c) => stopChild(c.process, 10_000)))
      await Promise.all(services.map((c) => stopChild(c.process, 10_000)))
    })()
    return closing
  }

  try {
    for (const s of services) {
      // services reach one another (the hub → conversations) by the same UPSTREAM_<SERVICE> the gateway reads
      for (const [i, url] of serviceUrls[s.name]!.entries()) spawnUnit(s, i, url, upstreams)
    }
    // Live at once, ready when its consumers are attached: a slow unit is waited for, one that exited fails the start.
    const ready = (units: FleetChild[]) =>
      awaitUnits(
        units.map((c) => ({
          name: c.name,
          url: c.url,
          listening: () => listening.has(c.name),
          // this unit exited, or another did (a gateway is never ready without its services)
          failed: () => {
            const gone = children.find((o) => exits.has(o.name))
            if (!gone) return undefined
            const why = `${exits.get(gone.name)}; its last lines:\n${(tails.get(gone.name) ?? []).join('\n')}`
            return gone === c ? why : `cannot start: ${gone.name} ${why}`
          },
        })),
        {
          logger,
          liveTimeoutMs: opts.liveTimeoutMs,
          readyTimeoutMs: opts.readyTimeoutMs,
          reportEveryMs: opts.reportEveryMs,
        },
      )
    await ready(children)
    // The gateway loads the denylist from identity at start, so it comes once the services answer; the seed
    // needs only identity and runs while the gateways boot.
    const gatewayEnv = {
      ...upstreams,
      GATEWAY_REPLICAS: String(gatewayReplicas),
      ...consoleDirEnv(opts.consoleDir ?? base.CONSOLE_DIR),
    }
    for (const [i, url] of gatewayUrls.entries()) spawnUnit(GATEWAY, i, url, gatewayEnv)
    const [seeded] = await Promise.all([
      opts.seed === false ? undefined : seedOneOff(services, (u) => unitEnv(u.name), { env, logger, dataDir }),
      ready(children.filter((c) => c.unit === 'gateway')),
    ])
    const restart = async (name: string) => {
      const again = respawn.get(name)
      if (!again) throw new Error(`no unit ${name} in this fleet`)
      const before = children.find((c) => c.name === name)!
      if (before.process.exitCode === null && before.process.signalCode === null) {
        throw new Error(`${name} is still running (pid ${before.process.pid})`)
      }
      again()
      const child = children.find((c) => c.name === name)!
      await awaitUnits(
        [
          {
            name,
            url: child.url,
            listening: () => listening.has(name),
            failed: () => (exits.has(name) ? exits.get(name) : undefined),
          },
        ],
        { logger, liveTimeoutMs: opts.liveTimeoutMs, readyTimeoutMs: opts.readyTimeoutMs },
      )
      return child
    }
    return { gatewayUrls, serviceUrls, children, namespace, env, unitEnv, seeded, restart, close }
  } catch (err) {
    logger.error({ err }, 'fleet did not start; stopping every unit')
    await close()
    throw err
  }
}
