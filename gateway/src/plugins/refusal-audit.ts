import { resourceForPath } from '@switchboard/auth'
import { AUDIT_RECORDED_TYPE, type AuditRecordData, auditSubject } from '@switchboard/contracts'
import { type EventBus, newEnvelope } from '@switchboard/events'
import { actionFor } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { GatewayMetrics } from '../metrics.ts'

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
      if (!id) id = decodeURIComponent(seg)
      return ':id'
    })
    .join('/')
  return { route, id }
}

export function refusalRecord(request: FastifyRequest, status: number): AuditRecordData {
  const path = request.url.split('?', 1)[0] ?? ''
  const { route, id } = templateOf(path)
  const { action, resource } = actionFor(request.method, route)
  return {
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
  }
}

/**
 * A management write the gateway refused after authenticating the caller — 403 (kind, scope, permission) or
 * 400 for a body it would not forward (nested too deep) — still yields an audit record (services audit what
 * reaches them). 401 and 429 are not audited: an unauthenticated flood must not become a flood of records.
 */
export function installRefusalAudit(app: FastifyInstance, bus: EventBus, metrics: GatewayMetrics) {
  async function record(request: FastifyRequest, status: number) {
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
    try {
      await bus.publish(auditSubject('gateway'), envelope)
    } catch (err) {
      metrics.auditPublishFailures.inc()
      request.log.error({ err, action: envelope.data.action }, 'refusal audit could not be published')
    }
  }
  // Synchronous for every other response (nearly all of them): no promise on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    const audited = reply.statusCode === 403 || reply.statusCode === 400
    if (!audited || request.gw.proxied || !request.gw.claims || !WRITES.has(request.method)) return done()
    void record(request, reply.statusCode).finally(done)
  })
}
