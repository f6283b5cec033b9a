import type { Logger } from 'pino'
import type { Teardowns } from './fixtures.ts'
import { silentLogger } from './logger.ts'
import { type Storage, type StorageMode, storageFixture } from './storage.ts'

/** The internal secret every service's tests sign their principals with, unless a test sets its own. */
export const TEST_INTERNAL_SECRET = 'test-internal-secret-0123456789'

/**
 * What a test needs of a service's descriptor (platform's `defineService`). Written by shape because this package
 * may not import platform (platform's own tests depend on this package).
 */
export interface TestableService<C, App extends TestableApp, Svc, Deps extends TestableDeps> {
  loadConfig(env: NodeJS.ProcessEnv): C
  build(config: C, deps: Deps): Promise<App>
  contextOf(app: App): Svc
}

/** The lifecycle of platform's `ServiceApp` a test drives. */
export interface TestableApp {
  ready(): PromiseLike<unknown>
  whenStarted(): Promise<unknown>
  close(): PromiseLike<unknown>
}

/** Platform's `ServiceDeps`, by shape: the logger, and a bus a test may hand in. */
export interface TestableDeps {
  logger: Logger
  bus?: unknown
}

export interface ServiceAppOptions<C, Deps extends TestableDeps> {
  /** the storage label, a few letters (`tk`, `cv`): the schema and prefixes start with it */
  label?: string
  /** environment for `loadConfig`, over `INTERNAL_SECRET` (TEST_INTERNAL_SECRET) and `LOG_LEVEL: silent`; a
   * function of the storage when a setting depends on it (conversations' `DB_DRIVER`) */
  env?: NodeJS.ProcessEnv | ((store: Storage) => NodeJS.ProcessEnv)
  /** replaces parts of the loaded config, after the storage (a stand-in provider's settings, a worker's period) */
  config?: Partial<C>
  /** storage a first app already uses: another replica on it (made with the test's own fixture otherwise) */
  store?: Storage
  /** a bus of the test's own: given as is (the test closes it), or made for this storage and closed after the app */
  bus?: NonNullable<Deps['bus']> | ((store: Storage) => Promise<NonNullable<Deps['bus']> & { close(): unknown }>)
  logger?: Logger
  /** how far to bring it up: consumers attached (`started`, as a runner's /ready waits for), Fastify `ready` only
   * (its consumers attach in the background: a replica starting with a backlog), or not at all */
  until?: 'started' | 'ready' | 'built'
}

/**
 * A service's app on isolated storage, ready to `inject()`, closed and its storage removed when the test ends:
 * `{ app, store, svc }` with `svc = service.contextOf(app)`. The storage fixture is registered before the app, so
 * its teardown (dropping the schema and streams) runs after `app.close()`, even if the build fails.
 */
export async function serviceApp<C, App extends TestableApp, Svc, Deps extends TestableDeps>(
  t: Teardowns,
  service: TestableService<C, App, Svc, Deps>,
  mode: StorageMode,
  opts: ServiceAppOptions<C, Deps> = {},
): Promise<{ app: App; store: Storage; svc: Svc }> {
  const store = opts.store ?? (await storageFixture(t, mode, opts.label))
  const env = typeof opts.env === 'function' ? opts.env(store) : opts.env
  const config = {
    ...service.loadConfig({ INTERNAL_SECRET: TEST_INTERNAL_SECRET, LOG_LEVEL: 'silent', ...env }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
    ...opts.config,
  }
  let bus: unknown = opts.bus
  if (typeof bus === 'function') {
    const made = await (bus as (store: Storage) => Promise<{ close(): unknown }>)(store)
    t.teardown(() => made.close())
    bus = made
  }
  const deps = { logger: opts.logger ?? silentLogger(), ...(bus ? { bus } : {}) } as Deps
  const app = await service.build(config, deps)
  t.teardown(() => app.close())
  const until = opts.until ?? 'started'
  if (until !== 'built') await app.ready()
  if (until === 'started') await app.whenStarted()
  return { app, store, svc: service.contextOf(app) }
}
