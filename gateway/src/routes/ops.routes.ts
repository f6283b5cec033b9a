import { type Static, Type } from '@sinclair/typebox'
import { ADMIN_REACH_PLATFORM, buildKeyring } from '@switchboard/auth'
import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import { ReplicaFiguresView } from '@switchboard/contracts/system-health.ts'
import { type EventBus, newEnvelope } from '@switchboard/events'
import { actionFor, auditSnapshot, storableAuditRecord } from '@switchboard/platform'
import type { FastifyInstance } from 'fastify'
import type { Dispatcher } from 'undici'
import type { AuditSink } from '../audit/audit-sink.ts'
import type { GatewayConfig } from '../config.ts'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import { type AuthDeps, installAuthentication } from '../plugins/authenticate.ts'
import { installPermissionCheck } from '../plugins/permission.ts'
import { installScopeGuard } from '../plugins/scope-guard.ts'
import { createUnitsHealth } from '../readiness.ts'

export interface OpsRoutesOptions {
  config: Pick<GatewayConfig, 'jwt' | 'permission_table' | 'upstreams' | 'ready_timeout_ms'>
  tokenState: AuthDeps['tokenState']
  bus: EventBus
  /** where the replay's audit record goes (the audit service, not this bus: it may be the one that failed) */
  audit: AuditSink
  metrics: GatewayMetrics
  /** the connection pool the upstreams' `/ready` probes go through */
  dispatcher: Dispatcher
}

const DeadLetterView = Type.Object({
  seq: Type.Integer(),
  origin_subject: Type.String(),
  origin_stream: Type.String(),
  origin_seq: Type.Integer(),
  consumer: Type.String(),
  error: Type.String(),
  failed_at: Type.String(),
  deliveries: Type.Integer(),
  envelope: Type.Record(Type.String(), Type.Unknown()),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
})

const UnitHealthView = Type.Object({
  unit: Type.String(),
  status: Type.Union([Type.Literal('ready'), Type.Literal('unready')]),
  replicas: Type.Integer(),
  replicas_ready: Type.Integer(),
  instances: Type.Array(
    Type.Object({
      replica: Type.Integer({ minimum: 1 }),
      ready: Type.Boolean(),
      metrics: Type.Union([ReplicaFiguresView, Type.Null()]),
      metrics_error: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
})

const ListQuery = Type.Object(
  {
    consumer: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
)

const ReplayBody = Type.Object(
  {
    seqs: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 10_000 })),
    consumer: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
)

/**
 * The dead-letter surface of the bus this gateway is connected to. The embedded mode's bus lives inside the
 * server process, so `switchboard dlq … --gateway URL --token T` comes here; a fleet's CLI talks to JetStream
 * directly, but the same routes work there too. Service principals and platform operators only — an admin whose
 * access token carries `admin_reach: 'platform'` (identity sets it for admins of platform-wide reach, whatever the
 * token's scope) — and they must hold `*` (an unmapped management path requires `*`). A tenant administrator holds
 * `*` too, but the bus and the units are every tenant's: it gets the 403 any other kind gets. A replay is a
 * management write and is audited like one. `GET /api/system/health`: each upstream unit's replicas asked for
 * `/ready` and `/metrics` (the admin console's health page), the same principals only.
 */
export async function opsRoutes(app: FastifyInstance, opts: OpsRoutesOptions) {
  const { config } = opts
  const unitsHealth = createUnitsHealth(config, opts.dispatcher)
  installAuthentication(app, 'management', {
    keys: buildKeyring(config.jwt.secret, config.jwt.previous_secrets),
    maxTokenBytes: config.jwt.max_token_bytes,
    lifetimes: config.jwt,
    tokenState: opts.tokenState,
    metrics: opts.metrics,
  })
  app.addHook('onRequest', async (request) => {
    const kind = request.gw.kind!
    if (kind === 'service') return
    if (kind !== 'admin') throw new GatewayErrors.PrincipalKindForbidden(kind)
    // Tokens minted before the claim existed (or of a tenant administrator) lack it: a fresh login brings it.
    if (request.gw.claims?.admin_reach !== ADMIN_REACH_PLATFORM) {
      throw new GatewayErrors.PrincipalKindForbidden('admin (without platform reach)')
    }
  })
  installScopeGuard(app, config.permission_table)
  installPermissionCheck(app)
  // The gateway keeps every body as the bytes the client sent (plugins/body-limit.ts: proxied routes forward them).
  // These routes are the gateway's own, so their JSON is parsed here, before the schema sees it: unparsed, a
  // replay's `seqs` was never read and "replay these" replayed every dead letter.
  app.addHook('preValidation', async (request) => {
    if (!Buffer.isBuffer(request.body)) return
    const text = request.body.toString('utf8')
    if (text.trim() === '') {
      request.body = undefined
      return
    }
    try {
      request.body = JSON.parse(text)
    } catch {
      throw new GatewayErrors.BodyInvalidJson()
    }
  })
  app.addHook('onResponse', (request, reply, done) => {
    if (request.method !== 'POST' || !request.gw.claims) return done()
    const claims = request.gw.claims
    const route = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? ''
    const { action, resource } = actionFor(request.method, route)
    const envelope = newEnvelope({
      type: AUDIT_RECORDED_TYPE,
      tenant_id: request.gw.principal?.tenant_id ?? claims.tenant_id,
      workspace_id: request.gw.principal?.workspace_id ?? claims.workspace_id,
      actor: { user_id: claims.user_id, kind: request.gw.kind ?? 'service' },
      request_id: String(request.id),
      data: storableAuditRecord({
        actor_user_id: claims.user_id,
        principal_kind: request.gw.kind ?? 'service',
        action,
        resource_type: resource,
        resource_id: '',
        route,
        method: request.method,
        status_code: reply.statusCode,
        success: reply.statusCode < 400,
        request_id: String(request.id),
        client_ip: request.ip,
        user_agent: String(request.headers['user-agent'] ?? ''),
        request_json: auditSnapshot(request.body),
        before_json: null,
        after_json: null,
      }),
    })
    opts.audit.record(envelope)
    done()
  })

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/api/ops/dead-letters',
    {
      schema: {
        querystring: ListQuery,
        response: { 200: Type.Object({ count: Type.Integer(), items: Type.Array(DeadLetterView) }) },
      },
    },
    async (request) => {
      const items = await opts.bus.deadLetters({ consumer: request.query.consumer, limit: request.query.limit })
      return { count: items.length, items }
    },
  )

  app.post<{ Body: Static<typeof ReplayBody> }>(
    '/api/ops/dead-letters/replay',
    { schema: { body: ReplayBody, response: { 200: Type.Object({ replayed: Type.Integer() }) } } },
    async (request) => {
      const replayed = await opts.bus.replayDeadLetters({ seqs: request.body?.seqs, consumer: request.body?.consumer })
      request.log.info({ replayed, principal: request.gw.claims?.user_id }, 'dead letters replayed')
      return { replayed }
    },
  )

  app.get(
    '/api/system/health',
    {
      schema: {
        response: {
          200: Type.Object({
            status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]),
            checked_at: Type.String(),
            units: Type.Array(UnitHealthView),
          }),
        },
      },
    },
    async () => {
      const units = await unitsHealth()
      const status = units.every((u) => u.status === 'ready') ? ('ready' as const) : ('degraded' as const)
      return { status, checked_at: new Date().toISOString(), units }
    },
  )
}
