import { AsyncLocalStorage } from 'node:async_hooks'
import { type Principal, STREAMS } from '@switchboard/contracts'
import {
  busWithMetrics,
  createEventMetrics,
  createJetStreamBus,
  createMemoryBus,
  createOutboxRelay,
  type EventBus,
  eventsMigrations,
  newEnvelope,
  outboxValues,
} from '@switchboard/events'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { type Cache, createCache } from '../cache.ts'
import { busRetention, type ServiceBaseConfig } from '../config.ts'
import { createDatabase, migrateToLatest } from '../db/database.ts'
import { createApp } from '../http/app.ts'
import { installAudit } from '../http/audit.ts'
import type { ReadyDetails } from '../http/health.ts'
import { createMetrics } from '../http/metrics.ts'
import { installOpenApi } from '../http/openapi.ts'
import { requirePrincipal } from '../http/principal.ts'
import type { Logger } from '../logger.ts'
import { callerOf, type Scope } from '../scope.ts'
import { createConsumers } from './consumers.ts'
import type { ServiceContext } from './context.ts'
import type { ServiceDefinition } from './descriptor.ts'
import { inboxRetentionWorker } from './inbox-retention.ts'
import { createOutboxWriter } from './outbox-writer.ts'
import { installStartup, type StartupSource } from './startup.ts'
import { createEventChecker, eventEnvelope, runTransaction, txFor } from './transaction.ts'
import { createWorkers } from './workers.ts'

/** What a runner may hand a service instead of letting it connect itself (the embedded mode shares one bus). */
export interface ServiceDeps {
  logger: Logger
  bus?: EventBus
  cache?: Cache
}

export type ServiceApp = ReturnType<typeof createApp>

/**
 * Builds a service from its definition, in one order every service shares: its database (migrated, its tables
 * and the outbox/inbox), the cache, the bus and its streams, the outbox relay, the app with /health /ready
 * /metrics, the audit hook and the OpenAPI document; then its context, public routes, protected routes
 * (inside the principal check). Once the app is ready, in the background: the relay, consumers, workers and the
 * startup hook (`/ready` says when they are done; Fastify's ready never waits for them). On close the start stops,
 * then the workers, the shutdown hook, the consumers and the relay in that order, then the connections close.
 */
export async function buildService<C extends ServiceBaseConfig, DB, X extends object>(
  def: ServiceDefinition<C, DB, X>,
  config: C,
  deps: ServiceDeps,
): Promise<{ app: ServiceApp; svc: ServiceContext<C, DB> & X }> {
  const logger = deps.logger
  const metrics = createMetrics(config.service)
  // Queries are labelled with the route template that made them, or `background` (outbox relay, workers),
  // so that "this path makes no query" is a counter reading rather than a guess.
  const inRequest = new AsyncLocalStorage<string>()
  const database = await createDatabase<DB>(config.database, logger, {
    onQuery: () => metrics.dbQueries.inc({ origin: inRequest.getStore() ?? 'background' }),
  })
  const opened: Array<() => Promise<unknown>> = [() => database.close()]
  const closeOpened = async () => {
    for (const close of opened.splice(0).reverse()) await close().catch((err) => logger.warn({ err }, 'close failed'))
  }
  try {
    await migrateToLatest(database.db, { ...eventsMigrations, ...def.migrations }, logger)
    const cache = deps.cache ?? createCache(config.cache)
    if (!deps.cache) opened.push(() => cache.close())
    let bus: EventBus | undefined
    const readyDetails: ReadyDetails = {}
    const startupSource: StartupSource = {}
    const app = createApp({
      readyDetails,
      startup: startupSource,
      service: config.service,
      logger,
      bodyLimit: config.body_limit_bytes,
      metrics,
      readiness: {
        database: () => database.ping(),
        cache: () => cache.ping(),
        bus: () => (bus ? bus.healthy() : Promise.resolve(false)),
      },
    })
    const eventMetrics = createEventMetrics(app.metrics.registry)
    // A shared in-process bus (the embedded mode) is taken through a view counting into this unit's registry, so
    // that its /metrics shows what it published and its durables' failures, as a fleet replica's does.
    bus = deps.bus
      ? busWithMetrics(deps.bus, eventMetrics)
      : config.bus.driver === 'nats'
        ? await createJetStreamBus({
            url: config.bus.url,
            prefix: config.bus.prefix,
            logger,
            metrics: eventMetrics,
            retention: busRetention(config.bus.retention),
          })
        : createMemoryBus({ logger, metrics: eventMetrics })
    const theBus = bus
    if (!deps.bus) opened.push(() => theBus.close())
    // Every unit publishes audit events and some consume others' streams: all known streams exist before any use.
    await bus.ensureStreams([
      ...Object.entries(STREAMS).map(([name, s]) => ({ name, subjects: s.subjects })),
      ...(def.streams ?? []),
    ])
    const relay = createOutboxRelay({ db: database.db as Kysely<unknown>, bus, logger, dialect: database.dialect })
    // the relay's passes are background work, not part of the request that happened to kick it
    const kick = () => inRequest.exit(() => relay.kick())
    const check = createEventChecker(def.events)

    await installOpenApi(app, config.service)
    app.addHook('onRequest', (request, _reply, done) => inRequest.run(request.routeOptions.url ?? 'unmatched', done))
    app.decorateRequest('principal', null as unknown as Principal)
    // audit records and `emitSoon`'s facts: written to the outbox in batches, outside any request's transaction
    const audits = createOutboxWriter(database.db as Kysely<unknown>, logger, kick, (fn) =>
      inRequest.exit(() => setImmediate(fn)),
    )
    installAudit(app, config.service, async (subject, type, request, data) => {
      const caller = callerOf(request)
      const scope = auditScope(request) ?? caller.scope
      const envelope = newEnvelope({
        type,
        tenant_id: scope.tenant_id,
        workspace_id: scope.workspace_id,
        actor: caller.actor,
        request_id: caller.request_id,
        data,
      })
      await audits.write(subject, envelope)
    })

    const base: ServiceContext<C, DB> = {
      name: config.service,
      config,
      log: app.log as unknown as Logger,
      metrics,
      db: database.db,
      dialect: database.dialect,
      cache,
      bus,
      transaction: (caller, work) => runTransaction(database.db, { check, kick }, caller, work),
      emitSoon(caller, def, data, scope) {
        check(def, data)
        return audits.write(def.type, eventEnvelope(caller, def, data, scope))
      },
      async publish(caller, def, data, scope) {
        check(def, data)
        await theBus.publish(def.type, eventEnvelope(caller, def, data, scope))
      },
      outboxRow(caller, def, data, scope) {
        check(def, data)
        return { row: outboxValues(def.type, eventEnvelope(caller, def, data, scope)), written: kick }
      },
      workers: undefined as never, // set below, once the full context exists
    }
    const svc = Object.assign(base, (await def.context?.(base)) ?? {}) as ServiceContext<C, DB> & X
    if (def.readyDetails) readyDetails.get = () => def.readyDetails!(svc)
    // a service that consumes keeps an inbox, and its retention comes with it
    const builtIn = def.consumers?.length ? [inboxRetentionWorker<typeof svc>()] : []
    const workers = createWorkers([...(def.workers ?? []), ...builtIn], {
      svc,
      service: config.service,
      cache,
      logger: svc.log,
      registry: metrics.registry,
    })
    ;(svc as { workers: unknown }).workers = workers
    const consumers = createConsumers(def.consumers ?? [], {
      svc,
      bus,
      db: database.db as never,
      transactionIn: (trx, caller) => txFor(trx as never, caller, check, () => {}),
      kick,
    })

    for (const routes of def.routes.public ?? []) app.register(async (scope) => routes(scope, svc))
    for (const [modules, optional] of [
      [def.routes.protected ?? [], false],
      [def.routes.optional ?? [], true],
    ] as const) {
      if (modules.length === 0) continue
      app.register(async (scope) => {
        requirePrincipal(scope, config.internal_secret, { optional })
        for (const routes of modules) await scope.register(async (inner) => routes(inner, svc))
      })
    }

    // Started once the app is ready but not awaited there (service/startup.ts): live at once, ready when done.
    const startup = installStartup(
      app,
      [
        { name: 'relay', run: () => relay.start() },
        { name: 'consumers', run: (signal) => consumers.start(signal) },
        { name: 'workers', run: () => workers.start() },
        ...(def.startup ? [{ name: 'startup', run: () => def.startup!(svc) }] : []),
      ],
      { logger: svc.log },
    )
    startupSource.state = startup.state
    app.addHook('preClose', async () => {
      await workers.stop()
      await audits.close()
      // the service's own background work, while consumers and connections still serve it; a failure here must
      // not keep the consumers and the relay from stopping
      await def.shutdown?.(svc).catch((err) => logger.error({ err }, 'service shutdown failed'))
      await consumers.stop()
      await relay.stop()
    })
    app.addHook('onClose', closeOpened)
    return { app, svc }
  } catch (err) {
    await closeOpened()
    throw err
  }
}

/**
 * An unscoped admin or service acting on a scoped record: the record's own tenant/workspace (from the handler's
 * audit context, else its before/after snapshot) scopes the audit record, so that tenant's auditors see it.
 */
function auditScope(request: FastifyRequest): Scope | undefined {
  if (request.principal?.tenant_id) return undefined
  const ctx = request.audit ?? {}
  const snapshot = (ctx.after ?? ctx.before ?? {}) as { tenant_id?: unknown; workspace_id?: unknown }
  const tenant = ctx.tenant_id ?? (typeof snapshot.tenant_id === 'string' ? snapshot.tenant_id : '')
  const workspace = ctx.workspace_id ?? (typeof snapshot.workspace_id === 'string' ? snapshot.workspace_id : '')
  return tenant ? { tenant_id: tenant, workspace_id: workspace } : undefined
}
