import { resourceForPath } from '@switchboard/auth'
import { AUDIT_RECORDED_TYPE, type AuditRecordData } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { actionFor, CLIENT_CLOSED_STATUS, storableAuditRecord } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuditSink } from '../audit/audit-sink.ts'

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The gateway doesn't know the service's route templates; an id-like segment (one with a digit, the way
 * the fleet's ids and UUIDs look) stands for `:id`, so `/api/tickets/42/assign` reads `/api/tickets/:id/assign`.
 */
export function templateOf(path: string): { route: string; id: string } {
  let id = ''
  const route = path
    .split('/')
    .map((seg, i) => {
      if (i < 3 || !/\d/.test(seg)) return seg
      if (!id) id = decoded(seg)
      return ':id'
    })
    .join('/')
  return { route, id }
}

/** A malformed escape (`%E0%A4%A1` cut short) stays as sent rather than failing the record. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** The record of a refusal, its text made storable (`%00` in a path id is a NUL once decoded). */
export function refusalRecord(request: FastifyRequest, status: number): AuditRecordData {
  const path = request.url.split('?', 1)[0] ?? ''
  const { route, id } = templateOf(path)
  const { action, resource } = actionFor(request.method, route)
  return storableAuditRecord({
    actor_user_id: request.gw.claims?.user_id ?? '',
    principal_kind: request.gw.kind ?? 'anonymous',
    action,
    resource_type: resourceForPath(path) ?? resource,
    resource_id: id,
    route,
    method: request.method,
    status_code: status,
    success: false,
    request_id: String(request.id),
    client_ip: request.ip,
    user_agent: String(request.headers['user-agent'] ?? ''),
    // Refused before the body was read (the body is the service's to interpret), or refused for its shape.
    request_json: request.gw.bodyRefused ? { _truncated: true, _reason: request.gw.bodyRefused } : null,
    before_json: null,
    after_json: null,
  })
}

/**
 * A management write the gateway refused after authenticating the caller — 403 (kind, scope, permission) or
 * 400 for a body it would not forward (nested too deep) — still yields an audit record (services audit what
 * reaches them), and so does one whose client left before it could be forwarded (499). 401 and 429 are not audited: an unauthenticated flood must not become a flood of records.
 * The record goes to the audit service through the sink (gateway/src/audit/audit-sink.ts), not the bus.
 */
export function installRefusalAudit(app: FastifyInstance, sink: AuditSink) {
  const recorded = new WeakSet<FastifyRequest>()
  function record(request: FastifyRequest, status: number) {
    if (recorded.has(request)) return
    recorded.add(request)
    const claims = request.gw.claims!
    const scope = request.gw.principal ?? { tenant_id: claims.tenant_id, workspace_id: claims.workspace_id }
    const envelope = newEnvelope({
      type: AUDIT_RECORDED_TYPE,
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
      actor: { user_id: claims.user_id, kind: request.gw.kind ?? 'end_user' },
      request_id: String(request.id),
      data: refusalRecord(request, status),
    })
    sink.record(envelope)
  }
  const audited = (request: FastifyRequest, status: number) =>
    (status === 403 || status === 400) &&
    !request.gw.proxied &&
    request.gw.claims !== undefined &&
    WRITES.has(request.method)
  // Synchronous for every other response (nearly all of them): no promise on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    if (audited(request, reply.statusCode)) record(request, reply.statusCode)
    done()
  })
  // A client that resets its connection before the refusal is written gets no `finish`, so no onResponse: the
  // refusal is recorded as it is sent instead (a probe that hangs up must still leave a trail).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.raw.destroyed && audited(request, reply.statusCode)) record(request, reply.statusCode)
    done(null, payload)
  })
  // An authenticated write whose client left while its body was being read is never forwarded (Fastify abandons it):
  // it reaches no service to audit it, so the gateway records it, as 499 (client closed request).
  app.addHook('onRequestAbort', (request, done) => {
    if (!request.gw.proxied && request.gw.claims !== undefined && WRITES.has(request.method)) {
      record(request, CLIENT_CLOSED_STATUS)
    }
    done()
  })
}
