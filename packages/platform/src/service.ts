import { AsyncLocalStorage } from 'node:async_hooks'
import { type Envelope, type Principal, STREAMS } from '@switchboard/contracts'
import {
  appendOutbox,
  createEventMetrics,
  createJetStreamBus,
  createMemoryBus,
  createOutboxRelay,
  type EventBus,
  eventsMigrations,
  newEnvelope,
  type OutboxRelay,
} from '@switchboard/events'
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { Kysely, Migration, Transaction } from 'kysely'
import { type Cache, createCache } from './cache.ts'
import type { ServiceBaseConfig } from './config.ts'
import { createDatabase, type Dialect, migrateToLatest } from './db/database.ts'
import { createApp } from './http/app.ts'
import { installAudit } from './http/audit.ts'
import { createMetrics } from './http/metrics.ts'
import { installOpenApi } from './http/openapi.ts'
import { requirePrincipal } from './http/principal.ts'
import type { Logger } from './logger.ts'

/** What a runner may hand a service instead of letting it connect itself (the embedded mode shares one bus). */
export interface ServiceDeps {
  logger: Logger
  bus?: EventBus
  cache?: Cache
}

export interface Outbox {
  /** queue an event inside the caller's transaction; it is published only if that transaction commits */
  append(trx: Transaction<any> | Kysely<any>, subject: string, envelope: Envelope): Promise<void>
  /** build an envelope scoped and attributed from a request (or the system) */
  envelope<T>(type: string, data: T, from?: FastifyRequest | { tenant_id: string; workspace_id: string }): Envelope<T>
  /** publish soon: call after a commit */
  kick(): void
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<any>
    dbDialect: Dialect
    cache: Cache
    bus: EventBus
    outbox: Outbox
  }
}

export interface ServiceOptions<C extends ServiceBaseConfig> {
  config: C
  deps: ServiceDeps
  migrations: Record<string, Migration>
}

/**
 * The infrastructure every service stands on, opened before any route is registered: its own database
 * (migrated), the cache, the bus, the outbox relay, readiness checks for all three, and the audit hook.
 * Routes go in afterwards; protected ones inside `protectedRoutes`.
 */
export async function createService<C extends ServiceBaseConfig>({ config, deps, migrations }: ServiceOptions<C>) {
  const logger = deps.logger
  const metrics = createMetrics(config.service)
  // Queries are labelled with the route template that made them, or `background` (outbox relay, workers),
  // so that "this path makes no query" is a counter reading rather than a guess.
  const inRequest = new AsyncLocalStorage<string>()
  const database = await createDatabase<any>(config.database, logger, {
    onQuery: () => metrics.dbQueries.inc({ origin: inRequest.getStore() ?? 'background' }),
  })
  const opened: Array<() => Promise<unknown>> = [() => database.close()]
  try {
    await migrateToLatest(database.db, { ...eventsMigrations, ...migrations }, logger)
    const cache = deps.cache ?? createCache(config.cache)
    if (!deps.cache) opened.push(() => cache.close())
    const app = createApp({
      service: config.service,
      logger,
      bodyLimit: config.body_limit_bytes,
      metrics,
      readiness: {
        database: () => database.ping(),
        cache: () => cache.ping(),
        bus: () => bus.healthy(),
      },
    })
    const eventMetrics = createEventMetrics(app.metrics.registry)
    const bus =
      deps.bus ??
      (config.bus.driver === 'nats'
        ? await createJetStreamBus({ url: config.bus.url, prefix: config.bus.prefix, logger, metrics: eventMetrics })
        : createMemoryBus({ logger, metrics: eventMetrics }))
    if (!deps.bus) opened.push(() => bus.close())
    // Every unit publishes audit events and some consume others' streams: all known streams exist before any use.
    await bus.ensureStreams(Object.entries(STREAMS).map(([name, def]) => ({ name, subjects: def.subjects })))
    const relay: OutboxRelay = createOutboxRelay({ db: database.db, bus, logger, dialect: database.dialect })
    const outbox: Outbox = {
      append: (trx, subject, envelope) => appendOutbox(trx, subject, envelope),
      envelope: (type, data, from) => {
        const req = from && 'principal' in from ? (from as FastifyRequest) : undefined
        const scope = req ? req.principal : (from as { tenant_id: string; workspace_id: string } | undefined)
        return newEnvelope({
          type,
          tenant_id: scope?.tenant_id ?? '',
          workspace_id: scope?.workspace_id ?? '',
          actor: req
            ? { user_id: req.principal.user_id, kind: req.principal.kind }
            : { user_id: 'system', kind: 'service' },
          request_id: req ? String(req.id) : undefined,
          data,
        })
      },
      // the relay's passes are background work, not part of the request that happened to kick it
      kick: () => inRequest.exit(() => relay.kick()),
    }
    await installOpenApi(app as unknown as FastifyInstance, config.service)
    app.addHook('onRequest', (request, _reply, done) => inRequest.run(request.routeOptions.url ?? 'unmatched', done))
    app.decorate('db', database.db)
    app.decorate('dbDialect', database.dialect)
    app.decorate('cache', cache)
    app.decorate('bus', bus)
    app.decorate('outbox', outbox)
    app.decorateRequest('principal', null as unknown as Principal)
    installAudit(app as unknown as FastifyInstance, config.service, async (subject, type, request, data) => {
      const envelope = outbox.envelope(type, data, request.principal ? request : undefined)
      const scope = auditScope(request)
      if (scope) Object.assign(envelope, scope)
      await outbox.append(database.db, subject, envelope)
      outbox.kick()
    })
    app.addHook('onReady', async () => relay.start())
    app.addHook('preClose', async () => relay.stop())
    app.addHook('onClose', async () => {
      for (const close of opened.reverse()) await close().catch((err) => logger.warn({ err }, 'close failed'))
    })
    return app
  } catch (err) {
    for (const close of opened.reverse()) await close().catch(() => {})
    throw err
  }
}

/**
 * An unscoped admin or service acting on a scoped record: the record's own tenant/workspace (from the handler's
 * audit context, else its before/after snapshot) scopes the audit record, so that tenant's auditors see it.
 */
function auditScope(request: FastifyRequest): { tenant_id: string; workspace_id: string } | undefined {
  if (request.principal?.tenant_id) return undefined
  const ctx = request.audit ?? {}
  const snapshot = (ctx.after ?? ctx.before ?? {}) as { tenant_id?: unknown; workspace_id?: unknown }
  const tenant = ctx.tenant_id ?? (typeof snapshot.tenant_id === 'string' ? snapshot.tenant_id : '')
  const workspace = ctx.workspace_id ?? (typeof snapshot.workspace_id === 'string' ? snapshot.workspace_id : '')
  return tenant ? { tenant_id: tenant, workspace_id: workspace } : undefined
}

/**
 * A plugin whose routes need the gateway's principal (policy by encapsulation, STYLE point 3):
 * `app.register(withPrincipal(config.internal_secret, ticketRoutes, commentRoutes))`.
 */
export function withPrincipal(internalSecret: string, ...routes: FastifyPluginAsync<any>[]): FastifyPluginAsync {
  return async function principalContext(app) {
    requirePrincipal(app, internalSecret)
    for (const route of routes) await app.register(route)
  }
}

export type ServiceApp = Awaited<ReturnType<typeof createService>>
