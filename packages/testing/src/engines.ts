import { randomBytes } from 'node:crypto'
import { startEngineContainer } from './containers.ts'
import { dockerAnswers, tcpAnswers } from './probes.ts'

export type EngineName = 'postgres' | 'redis' | 'nats'

/** The three real engines: where each is looked for, and what to start when it is nowhere. */
export const ENGINES = {
  postgres: { title: 'PostgreSQL', envVar: 'DATABASE_URL', loopbackUrl: 'postgres://postgres@127.0.0.1:5432/test' },
  redis: { title: 'Redis', envVar: 'REDIS_URL', loopbackUrl: 'redis://127.0.0.1:6379' },
  nats: { title: 'NATS JetStream', envVar: 'NATS_URL', loopbackUrl: 'nats://127.0.0.1:4222' },
} as const satisfies Record<EngineName, { title: string; envVar: string; loopbackUrl: string }>

const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[]

export interface EngineUrls {
  databaseUrl: string
  redisUrl: string
  natsUrl: string
}

/**
 * The engine URLs from the environment, defaulting to the loopback services of the development machine and
 * CI, without looking whether anything answers there. Synchronous, for module-level use; `resolveEngineUrls()`
 * is the same with the testcontainers fallback.
 */
export function engineUrls(env: NodeJS.ProcessEnv = process.env): EngineUrls {
  return {
    databaseUrl: env[ENGINES.postgres.envVar] || ENGINES.postgres.loopbackUrl,
    redisUrl: env[ENGINES.redis.envVar] || ENGINES.redis.loopbackUrl,
    natsUrl: env[ENGINES.nats.envVar] || ENGINES.nats.loopbackUrl,
  }
}

/** A short unique token for isolating one test file: schema names, Redis key prefixes, NATS prefixes. */
export function uniqueId(label = 't'): string {
  return `${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`.toLowerCase()
}

/** What is known so far about where one engine can be found; `undefined` is "not looked yet". */
export interface EngineFacts {
  envUrl?: string | undefined
  loopbackAnswers?: boolean | undefined
  dockerAnswers?: boolean | undefined
}

export type EngineDecision =
  | { kind: 'use'; source: 'env' | 'loopback'; url: string }
  | { kind: 'container' }
  | { kind: 'probe'; probe: 'loopback' | 'docker' }
  | { kind: 'fail'; message: string }

/**
 * Where to get an engine, as a pure step: a URL in the environment wins; else the loopback service if it
 * answers; else a container if a Docker engine answers; else a loud failure naming the engine. Asks for one
 * probe at a time, so nothing is probed that an earlier answer makes moot.
 */
export function chooseEngineSource(engine: EngineName, facts: EngineFacts): EngineDecision {
  const spec = ENGINES[engine]
  if (facts.envUrl) return { kind: 'use', source: 'env', url: facts.envUrl }
  if (facts.loopbackAnswers === undefined) return { kind: 'probe', probe: 'loopback' }
  if (facts.loopbackAnswers) return { kind: 'use', source: 'loopback', url: spec.loopbackUrl }
  if (facts.dockerAnswers === undefined) return { kind: 'probe', probe: 'docker' }
  if (facts.dockerAnswers) return { kind: 'container' }
  return {
    kind: 'fail',
    message:
      `${spec.title} is not available for the tests: ${spec.envVar} is not set, nothing answers at ` +
      `${spec.loopbackUrl}, and no Docker engine answers \`docker info\` for a testcontainers fallback. ` +
      `Start ${spec.title} there or set ${spec.envVar}.`,
  }
}

/** The side effects behind the decision; tests hand in their own. */
export interface EngineProbes {
  loopback(engine: EngineName): Promise<boolean>
  docker(): Promise<boolean>
  container(engine: EngineName): Promise<string>
}

export const realProbes: EngineProbes = {
  loopback: (engine) => tcpAnswers(ENGINES[engine].loopbackUrl),
  docker: () => dockerAnswers(),
  container: (engine) => startEngineContainer(engine),
}

export interface ResolvedEngine {
  url: string
  source: 'env' | 'loopback' | 'container'
}

/** Runs `chooseEngineSource` to its end with real (or given) probes. */
export async function resolveEngine(
  engine: EngineName,
  env: NodeJS.ProcessEnv = process.env,
  probes: EngineProbes = realProbes,
): Promise<ResolvedEngine> {
  const facts: EngineFacts = { envUrl: env[ENGINES[engine].envVar] }
  for (;;) {
    const decision = chooseEngineSource(engine, facts)
    switch (decision.kind) {
      case 'use':
        return { url: decision.url, source: decision.source }
      case 'container':
        return { url: await probes.container(engine), source: 'container' }
      case 'fail':
        throw new Error(decision.message)
      case 'probe':
        if (decision.probe === 'loopback') facts.loopbackAnswers = await probes.loopback(engine)
        else facts.dockerAnswers = await probes.docker()
    }
  }
}

// One resolution per engine per test process (every tap file is its own process): probing is cheap, but a
// fallback container takes seconds to start and must be shared by all the fixtures of the file. The
// containers are removed by testcontainers' reaper when the process exits.
const resolved = new Map<EngineName, Promise<ResolvedEngine>>()
let docker: Promise<boolean> | undefined
const sharedProbes: EngineProbes = {
  ...realProbes,
  docker: () => {
    docker ??= dockerAnswers()
    return docker
  },
}

/** The URL of one engine for this process's tests: environment, loopback, else a container (see README). */
export function engine(name: EngineName): Promise<string> {
  let found = resolved.get(name)
  if (!found) {
    found = resolveEngine(name, process.env, sharedProbes)
    resolved.set(name, found)
  }
  return found.then((r) => r.url)
}

/** All three engines, resolved like `engine()`. */
export async function resolveEngineUrls(): Promise<EngineUrls> {
  const [databaseUrl, redisUrl, natsUrl] = await Promise.all(ENGINE_NAMES.map((name) => engine(name)))
  return { databaseUrl: databaseUrl!, redisUrl: redisUrl!, natsUrl: natsUrl! }
}
