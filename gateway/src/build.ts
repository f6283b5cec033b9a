import { buildKeyring } from '@switchboard/auth'
import { STREAMS } from '@switchboard/contracts'
import {
  createEventMetrics,
  createJetStreamBus,
  createMemoryBus,
  type EventBus,
  type Subscription,
} from '@switchboard/events'
import { type Cache, createCache, installStartup, type Logger, type StartupSource } from '@switchboard/platform'
import { Agent } from 'undici'
import { createGatewayApp } from './app.ts'
import { createAuditSink } from './audit/audit-sink.ts'
import type { GatewayConfig } from './config.ts'
import { createGatewayMetrics } from './metrics.ts'
import { bodyLimitPlugin } from './plugins/body-limit.ts'
import { installRequestContext } from './plugins/context.ts'
import { corsPlugin } from './plugins/cors.ts'
import { proxyPlugin } from './plugins/proxy.ts'
import { rateLimitPlugin } from './plugins/rate-limit.ts'
import { proxiedRoutes } from './plugins/routes.ts'
import { upstreamReady } from './readiness.ts'
import { consoleRoutes } from './routes/console.routes.ts'
import { customerExportRoutes } from './routes/customer-export.routes.ts'
import { docsRoutes } from './routes/docs.routes.ts'
import { opsRoutes } from './routes/ops.routes.ts'
import { widgetRoutes } from './routes/widget.routes.ts'
import { createWidgetPolicy } from './routes/widget-policy.ts'
import { createServiceTable } from './routing/service-table.ts'
import { createUpstreamPool } from './routing/upstream-pool.ts'
import { securityBaseline } from './security-baseline.ts'
import { subscribeTokenState } from './token-state/events.ts'
import { createIdentityClient } from './token-state/identity-client.ts'
import { createTokenState } from './token-state/token-state.ts'
import { createWebsocketProxy } from './websocket/proxy.ts'

export interface GatewayDeps {
  logger: Logger
  /** shared by the embedded runner; otherwise made from config and closed with the app */
  bus?: EventBus
  cache?: Cache
}

/** The gateway as an un-listened Fastify instance: policies in their one order (gateway/README.md), then the proxy. */
export async function build(config: GatewayConfig, deps: GatewayDeps) {
  const logger = deps.logger
  for (const f of securityBaseline(config)) logger.warn({ finding: f.id }, `security baseline: ${f.message}`)

  const owned: Array<() => Promise<unknown>> = []
  const cache = deps.cache ?? createCache(config.cache)
  if (!deps.cache) owned.push(() => cache.close())
  const metrics = createGatewayMetrics()
  const busMetrics = createEventMetrics(metrics.registry)
  const bus =
    deps.bus ??
    (config.bus.driver === 'nats'
      ? await createJetStreamBus({
          url: config.bus.url,
          prefix: config.bus.prefix,
          logger,
          name: 'gateway',
          metrics: busMetrics,
        })
      : createMemoryBus({ logger, metrics: busMetrics }))
  if (!deps.bus) owned.push(() => bus.close())

  // Identity look-ups and readiness probes get their own pool: nothing global, closed with the app.
  const http = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: config.upstream_connect_timeout_ms } })
  owned.push(() => http.close())
  const pool = createUpstreamPool(config.upstreams, {
    coolDownMs: config.upstream_eject_ms,
    probeTimeoutMs: config.ready_timeout_ms,
    dispatcher: http,
    onEject: (service, base) => {
      metrics.upstreamEjections.inc({ service })
      metrics.upstreamEjected.inc({ service })
      logger.warn({ service, upstream: base }, 'upstream replica ejected after a connection failure')
    },
    onRestore: (service, base) => {
      metrics.upstreamEjected.dec({ service })
      logger.info({ service, upstream: base }, 'upstream replica back in rotation')
    },
  })
  owned.push(async () => pool.close())
  const pick = (service: string) => pool.pick(service)
  const table = createServiceTable(config.extra_routes)
  const identity = createIdentityClient({
    pick: () => pick('identity'),
    internalSecret: config.internal_secret,
    timeoutMs: config.token_state.fetch_timeout_ms,
    metrics,
    dispatcher: http,
  })
  const tokenState = createTokenState({ config: config.token_state, cache, identity, logger })
  // The gateway's own audit records go to the audit service, not the bus (docs/architecture.md §2); closed before
  // the connection pool it uses (`owned` closes in reverse), after it had a few seconds to hand over what is left.
  const audit = createAuditSink({
    pick: () => pick('audit'),
    internalSecret: config.internal_secret,
    dispatcher: http,
    timeoutMs: config.upstream_timeout_ms,
    metrics,
    logger,
  })
  owned.push(() => audit.close())

  const startupSource: StartupSource = {}
  const app = createGatewayApp(
    config,
    logger,
    metrics,
    {
      cache: () => cache.ping(),
      bus: () => bus.healthy(),
      token_state: async () => tokenState.ready(),
      ...upstreamReady(config, http),
    },
    startupSource,
  )

  // Registration order is the policy order: request id (in createGatewayApp) → upgrade marking → CORS →
  // rate limit → body size → per-class contexts (routing → authentication → principal kind → scope → permission) → proxy.
  installRequestContext(app)
  const authDeps = {
    keys: buildKeyring(config.jwt.secret, config.jwt.previous_secrets),
    maxTokenBytes: config.jwt.max_token_bytes,
    lifetimes: config.jwt,
    tokenState,
    metrics,
  }
  const websocket = createWebsocketProxy({
    config,
    auth: authDeps,
    tokenState,
    permissionTable: config.permission_table,
    pick: (service, except) => pool.pick(service, except),
    failed: (service, base) => pool.failed(service, base),
    table,
    metrics,
    logger,
  })
  await app.register(websocket.upgrades) // before any policy: an upgrade refused anywhere still gets closed
  await app.register(corsPlugin, { origins: config.cors_origins })
  await app.register(rateLimitPlugin, {
    config: config.rate_limits,
    cache,
    metrics,
    logger,
    replicas: config.replicas,
    loginFailures: { max: config.login_failures.max, windowMs: config.login_failures.window_seconds * 1000 },
  })
  await app.register(bodyLimitPlugin, {
    limit: config.body_limit_bytes,
    uploadLimit: config.upload_body_limit_bytes,
    maxDepth: config.body_max_depth,
  })
  await app.register(proxyPlugin, { config, metrics, pool })
  await app.register(proxiedRoutes, {
    auth: authDeps,
    audit,
    metrics,
    permissionTable: config.permission_table,
    pick,
    table,
    uploadBodyLimit: config.upload_body_limit_bytes,
  })
  await app.register(opsRoutes, { config, tokenState, bus, audit, metrics, dispatcher: http }) // dead letters, unit health
  await app.register(customerExportRoutes, { config, auth: authDeps, audit }) // a person's data from every unit
  await app.register(docsRoutes, { upstreams: config.upstreams, dispatcher: http }) // /openapi.json, /docs
  await app.register(websocket.routes) // GET /api/v1/ws (class "optional")
  // the chat widget: /widget.js, the frame at /widget/ (frame-ancestors from the scope's portal config), /demo
  const widgetPolicy = createWidgetPolicy({
    pick: () => pick('config-governance'),
    dispatcher: http,
    timeoutMs: config.upstream_timeout_ms,
    cacheMs: config.widget_policy_cache_ms,
    logger,
  })
  await app.register(widgetRoutes, { dir: config.widget_dir, policy: widgetPolicy, demo: config.demo_site })
  await app.register(consoleRoutes, { dir: config.console_dir }) // the agent console: `/` and the SPA's routes

  // Started once the app is ready, not awaited there (Fastify bounds onReady by its plugin timeout): live at once,
  // ready when the token-state events are subscribed and the denylist is loaded. Retried step by step on failure.
  let subscription: Subscription | undefined
  const startup = installStartup(
    app,
    [
      {
        name: 'streams',
        run: () => bus.ensureStreams(Object.entries(STREAMS).map(([name, s]) => ({ name, subjects: s.subjects }))),
      },
      {
        // subscribed before the denylist is loaded, so that nothing revoked in between is missed
        name: 'token-state events',
        run: async (signal) => {
          const subscribed = await subscribeTokenState(bus, tokenState, logger)
          if (signal.aborted) await subscribed.stop().catch(() => {})
          else subscription = subscribed
        },
      },
      { name: 'denylist', run: (signal) => (signal.aborted ? undefined : tokenState.start()) },
    ],
    { logger },
  )
  startupSource.state = startup.state
  app.addHook('onClose', async () => {
    tokenState.stop()
    await subscription?.stop().catch(() => {})
    for (const close of owned.reverse()) await close().catch((err) => logger.warn({ err }, 'close failed'))
  })
  return app
}

export type Gateway = Awaited<ReturnType<typeof build>>
