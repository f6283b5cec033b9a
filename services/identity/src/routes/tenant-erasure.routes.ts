import { Type } from '@sinclair/typebox'
import { callerOf, type RouteModule } from '@switchboard/platform'
import { eraseTenant, tenantErasureReport } from '../commands/tenant-erasure.commands.ts'
import type { IdentityService } from '../context.ts'
import { findTenantErasure } from '../db/erasure-tenant.repository.ts'
import { tenantErasureCounts } from '../db/erasures.repository.ts'
import { findTenant } from '../db/tenants.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { TenantParams } from '../schemas/tenants.schemas.ts'
import { auditAs, managementErrors, requireAccess } from './access.ts'

const tags = ['tenants']

const Counts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }))

/** The tenant's own part: what each unit removed of it, and the units still to report (ids and counts only). */
const TenantReportSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('in_progress'), Type.Literal('completed')]),
  requested_at: Type.String(),
  completed_at: Type.Union([Type.String(), Type.Null()]),
  services: Type.Array(Type.Object({ service: Type.String(), counts: Counts, reported_at: Type.String() })),
  pending: Type.Array(Type.String()),
})

/** A tenant's erasure: the tenant's status, its customers' erasures by state, and its own report. */
const TenantErasureSchema = Type.Object({
  tenant_id: Type.String(),
  status: Type.String({ description: 'the tenant: disabled once erased' }),
  /** customers whose erasure this request started (0 when repeated) */
  started: Type.Integer({ minimum: 0 }),
  erasures: Type.Object({
    in_progress: Type.Integer({ minimum: 0 }),
    completed: Type.Integer({ minimum: 0 }),
  }),
  /** absent for a tenant never erased */
  report: Type.Optional(TenantReportSchema),
})

/**
 * `POST /api/security/tenants/:tenant_id/erasure`: a tenant deletes itself (its administrator, or a platform
 * operator) — every customer erased, its staff, documents, free text and cached keys removed by every unit, the
 * tenant disabled (services/identity/README.md, "Erasure and export").
 * `GET` the same path: how far its customers' erasures and its own are (a platform operator: the tenant's own tokens are refused
 * once it is disabled). Another tenant answers 404 like a missing one.
 */
export const tenantErasureRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const access = requireAccess('security.write', 'customers.erase')

  async function view(tenantId: string, status: string, started: number) {
    const counts = await tenantErasureCounts(svc.db, tenantId)
    const erasure = await findTenantErasure(svc.db, tenantId)
    return {
      ...(erasure ? { report: await tenantErasureReport(svc.db, erasure) } : {}),
      tenant_id: tenantId,
      status,
      started,
      erasures: { in_progress: counts.in_progress ?? 0, completed: counts.completed ?? 0 },
    }
  }

  app.post(
    '/api/security/tenants/:tenant_id/erasure',
    {
      onRequest: auditAs('security.tenants_erase'),
      preValidation: access,
      schema: { tags, params: TenantParams, response: { 202: TenantErasureSchema, ...managementErrors } },
    },
    async (request, reply) => {
      const id = request.params.tenant_id
      request.audit.resource_type = 'tenants'
      request.audit.resource_id = id
      request.audit.tenant_id = id
      const { tenant, started } = await eraseTenant(svc, callerOf(request), id)
      request.audit.after = { status: tenant.status, customers_erased: started.length }
      return reply.code(202).send(await view(id, tenant.status, started.length))
    },
  )

  app.get(
    '/api/security/tenants/:tenant_id/erasure',
    {
      preValidation: access,
      schema: { tags, params: TenantParams, response: { 200: TenantErasureSchema, ...managementErrors } },
    },
    async (request) => {
      const id = request.params.tenant_id
      const own = request.principal.tenant_id
      const tenant = own && own !== id ? undefined : await findTenant(svc.db, id)
      if (!tenant) throw new IdentityErrors.TenantNotFound(id)
      return view(id, tenant.status, 0)
    },
  )
}
