import { type Static, Type } from '@sinclair/typebox'
import {
  AUDIT_RECORDED_TYPE,
  CUSTOMER_EXPORT_PATH,
  CustomerExportPart,
  ERASURE_PERMISSION,
  holdsErasurePermission,
  type Principal,
} from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { createServiceClient, type ServiceClient, storableAuditRecord } from '@switchboard/platform'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { AuditSink } from '../audit/audit-sink.ts'
import type { GatewayConfig } from '../config.ts'
import { GatewayErrors } from '../errors.ts'
import { type AuthDeps, installAuthentication } from '../plugins/authenticate.ts'
import { installScopeGuard } from '../plugins/scope-guard.ts'

/** The units holding a share of a person's data, identity first: its 404 is the answer for a customer out of scope. */
export const EXPORT_UNITS = ['identity', 'conversations', 'tickets', 'audit', 'realtime-voice'] as const

export interface CustomerExportOptions {
  config: Pick<GatewayConfig, 'permission_table' | 'upstreams' | 'internal_secret'>
  auth: AuthDeps
  audit: AuditSink
}

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })
/** The fleet's error body (docs/api.md §5), a unit's passed on as it came. */
const Refusal = Type.Object({
  error: Type.String(),
  message: Type.String(),
  code: Type.String(),
  request_id: Type.String(),
})

/** The archive: every unit's share of the person, by unit, as one JSON document. */
export const CustomerExport = Type.Object({
  customer_id: Type.String(),
  user_id: Type.String(),
  exported_at: Type.String(),
  parts: Type.Record(Type.String(), CustomerExportPart),
})
export type CustomerExport = Static<typeof CustomerExport>

/**
 * `GET /api/customers/:id/export`: all of a person's data in one archive (the right of access and portability),
 * assembled here because only the gateway reaches every unit in both run modes. Each unit answers its own share
 * from `GET /internal/customers/:id/export` for the administrator who asked, in their scope (identity's 404 for a
 * customer of another tenant is the answer, its body as it came). Administrators only (`customers.erase`, which only
 * `*` holds); audited like a management write — who exported whom, nothing of the person.
 */
export async function customerExportRoutes(app: FastifyInstance, opts: CustomerExportOptions) {
  const clients = new Map<string, ServiceClient>()
  for (const unit of EXPORT_UNITS) {
    const urls = opts.config.upstreams[unit]
    if (!urls?.length) continue
    clients.set(
      unit,
      createServiceClient({
        service: unit,
        urls,
        internalSecret: opts.config.internal_secret,
        self: 'gateway',
        timeoutMs: 30_000,
      }),
    )
  }
  app.addHook('onClose', async () => {
    await Promise.all([...clients.values()].map((c) => c.close()))
  })

  installAuthentication(app, 'management', opts.auth)
  installScopeGuard(app, opts.config.permission_table)
  app.addHook('onRequest', (request, _reply, done) => {
    done(
      holdsErasurePermission(request.gw.principal!.permissions)
        ? undefined
        : new GatewayErrors.PermissionDenied(ERASURE_PERMISSION),
    )
  })
  app.addHook('onResponse', (request, reply, done) => {
    const claims = request.gw.claims
    if (!claims) return done()
    const principal = request.gw.principal
    const data = storableAuditRecord({
      actor_user_id: claims.user_id,
      principal_kind: request.gw.kind ?? 'service',
      action: 'customers.export',
      resource_type: 'customers',
      resource_id: (request.params as { id?: string }).id ?? '',
      route: '/api/customers/:id/export',
      method: request.method,
      status_code: reply.statusCode,
      success: reply.statusCode < 400,
      request_id: String(request.id),
      client_ip: request.ip,
      user_agent: String(request.headers['user-agent'] ?? ''),
      request_json: null,
      before_json: null,
      after_json: null,
    })
    opts.audit.record(
      newEnvelope({
        type: AUDIT_RECORDED_TYPE,
        tenant_id: principal?.tenant_id ?? claims.tenant_id,
        workspace_id: principal?.workspace_id ?? claims.workspace_id,
        actor: { user_id: claims.user_id, kind: request.gw.kind ?? 'service' },
        request_id: String(request.id),
        data,
      }),
    )
    done()
  })

  app.get<{ Params: Static<typeof Params> }>(
    '/api/customers/:id/export',
    {
      schema: {
        params: Params,
        response: { 200: CustomerExport, '4xx': Refusal, '5xx': Refusal },
      },
    },
    async (request, reply) => {
      const principal = request.gw.principal as Principal
      const id = request.params.id
      const path = (userId: string) =>
        `${CUSTOMER_EXPORT_PATH.replace(':id', encodeURIComponent(id))}?user_id=${encodeURIComponent(userId)}`
      const share = async (unit: string, userId: string) => {
        const client = clients.get(unit)
        if (!client) throw new GatewayErrors.UpstreamNotConfigured(unit)
        return client.call<CustomerExportPart>('GET', path(userId), undefined, {
          as: principal,
          request_id: String(request.id),
        })
      }
      const identity = await share('identity', id)
      if (identity.status !== 200) return answerAsIs(reply, identity)
      const userId = String(identity.body.customers?.[0]?.user_id ?? '')
      const parts: Record<string, CustomerExportPart> = { identity: identity.body }
      for (const unit of EXPORT_UNITS.slice(1)) {
        const r = await share(unit, userId)
        if (r.status !== 200) return answerAsIs(reply, r)
        parts[unit] = r.body
      }
      const archive: CustomerExport = { customer_id: id, user_id: userId, exported_at: new Date().toISOString(), parts }
      reply.header('content-disposition', `attachment; filename="customer-${id}.json"`)
      reply.header('cache-control', 'no-store')
      return archive
    },
  )
}

/** A unit's refusal (the fleet's error body) passed on unchanged, so a foreign customer reads like a missing one. */
function answerAsIs(reply: FastifyReply, r: { status: number; body: unknown }) {
  return reply.code(r.status).send(r.body)
}
