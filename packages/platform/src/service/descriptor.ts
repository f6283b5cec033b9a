import type { EventCatalog, UnitEntry } from '@switchboard/contracts'
import type { StreamDef } from '@switchboard/events'
import type { Migration } from 'kysely'
import type { ServiceBaseConfig } from '../config.ts'
import { buildService, type ServiceApp, type ServiceDeps } from './build.ts'
import type { ConsumerDef } from './consumers.ts'
import type { RouteModule, ServiceContext } from './context.ts'
import type { WorkerDef } from './workers.ts'

/** What a service is, declared once (docs/conventions.md §2). */
export interface ServiceDefinition<C extends ServiceBaseConfig, DB, X extends object> {
  /** its line in the unit registry (`UNITS.tickets`): name, default port, public prefixes */
  unit: UnitEntry
  /** pure: the environment in, a checked config out */
  loadConfig(env: NodeJS.ProcessEnv): C
  /** its own tables, forward-only (the outbox and inbox are added by the platform) */
  migrations: Record<string, Migration>
  /** streams it publishes to beyond the fleet's (`STREAMS` of packages/contracts); made at start */
  streams?: readonly StreamDef[]
  /** the event contracts it emits; emitting anything else, or a payload off its schema, is an error */
  events: readonly EventCatalog[]
  /** its own parts of the context (keys, clients, policies), made once the infrastructure is up */
  context?(svc: ServiceContext<C, DB>): X | Promise<X>
  routes: {
    /** routes anyone may call (the gateway decides who reaches them) */
    public?: readonly RouteModule<ServiceContext<C, DB> & X>[]
    /** routes that need the principal the gateway signs */
    protected?: readonly RouteModule<ServiceContext<C, DB> & X>[]
    /** routes that take the principal when the caller has one, and anonymous callers too (`request.principal` null) */
    optional?: readonly RouteModule<ServiceContext<C, DB> & X>[]
  }
  consumers?: readonly ConsumerDef<ServiceContext<C, DB> & X>[]
  workers?: readonly WorkerDef<ServiceContext<C, DB> & X>[]
  /**
   * runs once the app is ready, after consumers and workers started (e.g. seeding when configured), in the background:
   * the service is ready when it is done. After a failure it runs again (retried until it succeeds or the service
   * closes), so it resumes rather than repeats what it already did.
   */
  startup?(svc: ServiceContext<C, DB> & X): Promise<void>
  /**
   * runs on close, after the workers stopped and before the consumers do (the database and bus still open):
   * stops and awaits background work the service started itself (passes kicked by a request or an event)
   */
  shutdown?(svc: ServiceContext<C, DB> & X): Promise<void>
  /** what `/ready` shows as `details` (a read model's lag): for operators, never a reason to be unready */
  readyDetails?(svc: ServiceContext<C, DB> & X): Promise<unknown>
  /** the runners' demo seed (`npm start`, `npm run fleet`): idempotent; options from the environment */
  seed?(svc: ServiceContext<C, DB> & X, opts: Record<string, string | undefined>): Promise<unknown>
}

export interface ServiceDescriptor<C extends ServiceBaseConfig = any, DB = any, X extends object = any> {
  readonly name: string
  readonly defaultPort: number
  readonly prefixes: readonly string[]
  readonly definition: ServiceDefinition<C, DB, X>
  loadConfig(env: NodeJS.ProcessEnv): C
  /** an un-listened app: runners listen, tests `inject()` */
  build(config: C, deps: ServiceDeps): Promise<ServiceApp>
  /** the context an app of this descriptor was built with (tests, the CLI's seed) */
  contextOf(app: ServiceApp): ServiceContext<C, DB> & X
  /** seeds through a built app, when the service has a seed */
  seed?(app: ServiceApp, opts: Record<string, string | undefined>): Promise<unknown>
}

/**
 * Declares a service. Its `build.ts` is this call; its `main.ts` is `runService(descriptor, process.env)`.
 * `defineService<TicketsConfig, TicketsDatabase>({ unit: UNITS.tickets, loadConfig, migrations, events, routes })`
 */
export function defineService<C extends ServiceBaseConfig, DB, X extends object = Record<never, never>>(
  definition: ServiceDefinition<C, DB, X>,
): ServiceDescriptor<C, DB, X> {
  const contexts = new WeakMap<ServiceApp, ServiceContext<C, DB> & X>()
  const descriptor: ServiceDescriptor<C, DB, X> = {
    name: definition.unit.name,
    defaultPort: definition.unit.port,
    prefixes: definition.unit.prefixes,
    definition,
    loadConfig: (env) => definition.loadConfig(env),
    async build(config, deps) {
      const { app, svc } = await buildService(definition, config, deps)
      contexts.set(app, svc)
      return app
    },
    contextOf(app) {
      const svc = contexts.get(app)
      if (!svc) throw new Error(`this app was not built by the ${definition.unit.name} descriptor`)
      return svc
    },
  }
  if (definition.seed) {
    const seed = definition.seed
    descriptor.seed = (app, opts) => seed(descriptor.contextOf(app), opts)
  }
  return descriptor
}
