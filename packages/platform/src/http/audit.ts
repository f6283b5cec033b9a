import { AUDIT_RECORDED_TYPE, type AuditRecordData, auditSubject } from '@switchboard/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { auditSnapshot } from '../masking.ts'
import { storableAuditRecord } from '../storable-text.ts'
import type { AnyApp } from './app.ts'

export interface AuditContext {
  action?: string
  resource_type?: string
  resource_id?: string
  before?: unknown
  after?: unknown
  /**
   * What the record keeps of the request body, when the route knows secrets that key names do not reveal (an app
   * integration's settings marked secret by its schema); default: the body. Masked like the rest either way.
   */
  request?: unknown
  /** the record's scope, when the principal's is empty (unscoped admin/service) */
  tenant_id?: string
  workspace_id?: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** handlers fill in what only they know: the resource id and before/after snapshots */
    audit: AuditContext
  }
  interface FastifyContextConfig {
    /** audit this route's writes though its path is not management (`/api/v1/…`): an operator's act */
    audit?: boolean
    /** set by installAudit on every route registered after it: the route's last onSend hook writes the record */
    recordsBeforeAnswer?: boolean
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const VERB_FOR_METHOD: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' }

/**
 * `POST /api/customers` → customers.create, `POST /api/tickets/:id/assign` → tickets.assign, `PUT /api/agents/:id/status` →
 * agents.status; `/api/apps/<x>` is the resource `app_<x>` (as the earlier system's records named it): `POST /api/apps/integrations` →
 * app_integrations.create; `/api/omni/<x>` is the resource `workspace` (the resource its permission names), `<x>` its
 * collection: `POST /api/omni/sessions` → workspace.create, `POST /api/omni/sessions/:id/assign` → workspace.assign.
 */
export function actionFor(method: string, route: string): { resource: string; action: string } {
  const segments = route
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
  const parts =
    segments[0] === 'apps' && segments[1]
      ? [`app_${segments[1]}`, ...segments.slice(2)]
      : segments[0] === 'omni'
        ? ['workspace', ...segments.slice(2)]
        : segments
  const resource = (parts[0] ?? 'unknown').replaceAll('-', '_')
  const last = parts[parts.length - 1] ?? ''
  let verb = VERB_FOR_METHOD[method] ?? method.toLowerCase()
  if (method !== 'DELETE' && parts.length > 1 && !last.startsWith(':')) verb = last.replaceAll('-', '_')
  return { resource, action: `${resource}.${verb}` }
}

export type AuditSink = (subject: string, type: string, request: FastifyRequest, data: AuditRecordData) => Promise<void>

/** The status of a write whose client went away before the service had an answer (nginx's "client closed request"). */
export const CLIENT_CLOSED_STATUS = 499

const isManagementWrite = (request: FastifyRequest) => {
  if (!WRITE_METHODS.has(request.method)) return false
  // an operator's act on a self-service path (a breaker reset, a provider switch) opts in with `config: { audit: true }`
  if (request.routeOptions.config?.audit === true) return true
  const path = request.url.split('?', 1)[0] ?? ''
  return path.startsWith('/api/') && !path.startsWith('/api/v1/')
}

/**
 * Every management write that reaches this service yields one audit event, successful or not
 * (docs/api.md §12). Self-service `/api/v1/*` is not management and is not audited, except a route that says
 * `config: { audit: true }` (an operator's act that happens to live there).
 *
 * Written to the outbox before the answer goes out (for up to RECORD_WAIT_MS): a process killed -9 right after
 * answering must not leave an accepted write without its record (the chaos bench found one when it was recorded after
 * the answer). The recording
 * hook is appended to every route's own onSend hooks as the route is registered (onRoute), so it runs after all of
 * them — a route's onSend may still complete the record (config-governance's integrations routes set a refused
 * write's redacted body there) — and it records whether or not the client is still there. A request that matched
 * no route (the not-found handler) is recorded when its answer has gone out (onResponse), as it is sent if its
 * socket is already gone, or when the socket closes first (the response's 'close' without 'finish'); a request
 * Fastify abandons because its client left while its body was being read is recorded with status 499
 * (onRequestAbort). One record per request, whichever comes first.
 */
/**
 * How long an answer waits for its record to reach the outbox (a few milliseconds when the database takes writes):
 * past it — the database locked or unreachable — the answer goes out and the record keeps trying on its own (the
 * outbox writer retries for ~16 s), so a refused write is never held for that long (a SQLite write lock held
 * elsewhere held a 503 for a minute).
 */
export const RECORD_WAIT_MS = 1000

/** `work`, or `ms` — whichever ends first; `work` goes on either way. */
async function atMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  try {
    await Promise.race([work, waited])
  } finally {
    clearTimeout(timer)
  }
}

export function installAudit(app: AnyApp, service: string, sink: AuditSink) {
  const recorded = new WeakSet<FastifyRequest>()
  app.decorateRequest('audit', null as unknown as AuditContext)
  app.addHook('onRequest', (request, _reply, done) => {
    request.audit = {}
    done()
  })
  const recordBeforeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (isManagementWrite(request)) await atMost(record(request, reply.statusCode), RECORD_WAIT_MS)
    return payload
  }
  app.addHook('onRoute', (route) => {
    const own = route.onSend === undefined ? [] : [route.onSend].flat()
    route.onSend = [...own, recordBeforeAnswer] as typeof route.onSend
    route.config = { ...route.config, recordsBeforeAnswer: true }
  })
  const recordsBeforeAnswer = (request: FastifyRequest) => request.routeOptions.config?.recordsBeforeAnswer === true
  // The nets for a request no route's hook recorded. Synchronous for reads (most requests).
  app.addHook('onResponse', (request, reply, done) => {
    if (!isManagementWrite(request)) return done()
    void record(request, reply.statusCode).finally(done)
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isManagementWrite(request) && !recordsBeforeAnswer(request)) {
      if (reply.raw.destroyed) void record(request, reply.statusCode)
      // written to a socket that may still close before the answer is out: then no 'finish', so no onResponse
      else reply.raw.once('close', () => void record(request, reply.statusCode))
    }
    done(null, payload)
  })
  app.addHook('onRequestAbort', (request, done) => {
    if (isManagementWrite(request)) void record(request, CLIENT_CLOSED_STATUS)
    done()
  })
  async function record(request: FastifyRequest, status: number) {
    if (recorded.has(request)) return
    recorded.add(request)
    const route = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? ''
    const derived = actionFor(request.method, route)
    const ctx = request.audit ?? {}
    const params = (request.params ?? {}) as Record<string, string>
    // A hostile request (a NUL, a lone surrogate) is recorded with its text made storable, never refused by the store.
    const data: AuditRecordData = storableAuditRecord({
      actor_user_id: request.principal?.user_id ?? '',
      principal_kind: request.principal?.kind ?? 'anonymous',
      action: ctx.action ?? derived.action,
      resource_type: ctx.resource_type ?? derived.resource,
      resource_id: ctx.resource_id ?? params.id ?? '',
      route,
      method: request.method,
      status_code: status,
      success: status < 400,
      request_id: String(request.id),
      client_ip: request.ip,
      user_agent: String(request.headers['user-agent'] ?? ''),
      request_json: auditSnapshot('request' in ctx ? ctx.request : request.body),
      before_json: auditSnapshot(ctx.before),
      after_json: auditSnapshot(ctx.after),
    })
    try {
      await sink(auditSubject(service), AUDIT_RECORDED_TYPE, request, data)
    } catch (err) {
      request.log.error({ err, action: data.action }, 'audit record could not be queued')
    }
  }
}
