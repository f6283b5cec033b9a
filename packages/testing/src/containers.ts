import type { EngineName } from './engines.ts'

/** The image each engine falls back to: the versions the project's tests are written against. */
export const CONTAINERS = {
  postgres: {
    image: 'postgres:15',
    port: 5432,
    environment: { POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'test' },
    command: [],
    // The image logs this once for its init run and once when it really listens.
    ready: { message: /database system is ready to accept connections/, times: 2 },
    url: (host: string, port: number) => `postgres://postgres@${host}:${port}/test`,
  },
  redis: {
    image: 'redis:7',
    port: 6379,
    environment: {},
    command: [],
    ready: { message: /Ready to accept connections/, times: 1 },
    url: (host: string, port: number) => `redis://${host}:${port}`,
  },
  nats: {
    image: 'nats:2.10',
    port: 4222,
    environment: {},
    command: ['-js'],
    ready: { message: /Server is ready/, times: 1 },
    url: (host: string, port: number) => `nats://${host}:${port}`,
  },
} as const satisfies Record<EngineName, unknown>

/**
 * Starts the engine in a container and returns its URL. testcontainers is imported only here, on the
 * fallback path, so machines with the loopback services never load it. The container lives until the
 * process exits (testcontainers' reaper removes it).
 */
export async function startEngineContainer(engine: EngineName): Promise<string> {
  const spec = CONTAINERS[engine]
  const { GenericContainer, Wait } = await import('testcontainers').catch((err: unknown) => {
    throw new Error(`${engine}: the testcontainers fallback needs the 'testcontainers' package`, { cause: err })
  })
  let container = new GenericContainer(spec.image)
    .withExposedPorts(spec.port)
    .withEnvironment(spec.environment)
    .withWaitStrategy(Wait.forLogMessage(spec.ready.message, spec.ready.times))
  if (spec.command.length > 0) container = container.withCommand([...spec.command])
  const started = await container.start()
  return spec.url(started.getHost(), started.getMappedPort(spec.port))
}
