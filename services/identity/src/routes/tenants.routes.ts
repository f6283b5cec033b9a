import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import {
  createTenant,
  setTenantStatusCommand,
  type TenantChange,
  updateTenantCommand,
} from '../commands/tenants.commands.ts'
import type { IdentityService } from '../context.ts'
import { findTenant, listTenants, type TenantRow, tenantView, workspaceView } from '../db/tenants.repository.ts'
import { SCOPE_STATUS, type ScopeStatusValue } from '../domain/scope-registry.ts'
import { IdentityErrors } from '../errors.ts'
import {
  CreateTenantBody,
  RegistryListQuery,
  TenantCreated,
  TenantPage,
  TenantParams,
  TenantSchema,
  UpdateScopeBody,
} from '../schemas/tenants.schemas.ts'
import { auditAs, managementErrors, requireAccess, requirePlatform } from './access.ts'

const tags = ['tenants']

/**
 * The tenant registry (services/identity/README.md): platform administrators and services manage it; a caller
 * narrowed to one tenant reads that tenant only, every other one answering like a missing tenant.
 */
export const tenantRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const read = requireAccess('security.read')
  const write = [requireAccess('security.write'), requirePlatform('manage tenants')]
  const errors = managementErrors
  const createErrors = errorResponses(400, 401, 403, 409)

  /** Audit records of a tenant carry the tenant's own scope, so its readers see them. */
  function audited(request: FastifyRequest, id: string) {
    request.audit.resource_type = 'tenants'
    request.audit.resource_id = id
    request.audit.tenant_id = id
  }

  async function changeStatus(request: FastifyRequest, id: string, status: ScopeStatusValue) {
    audited(request, id)
    const { before, after }: TenantChange = await setTenantStatusCommand(svc, callerOf(request), id, status)
    request.audit.before = { status: before.status }
    request.audit.after = { status: after.status }
    return tenantView(after)
  }

  app.post(
    '/api/security/tenants',
    {
      onRequest: auditAs('security.tenants_create'),
      preValidation: write,
      schema: { tags, body: CreateTenantBody, response: { 201: TenantCreated, ...createErrors } },
    },
    async (request, reply) => {
      audited(request, request.body.id)
      const { tenant, workspaces } = await createTenant(svc, callerOf(request), request.body)
      const view = { ...tenantView(tenant), workspaces: workspaces.map(workspaceView) }
      request.audit.before = null
      request.audit.after = view
      return reply.code(201).send(view)
    },
  )

  app.get(
    '/api/security/tenants',
    {
      preValidation: read,
      schema: { tags, querystring: RegistryListQuery, response: { 200: TenantPage, ...errors } },
    },
    async (request) => {
      const window = pageWindow(request.query)
      const filter = { tenant_id: request.principal.tenant_id, status: request.query.status }
      const { rows, total } = await listTenants(svc.db, filter, window)
      return pageOf(rows.map(tenantView), total, window)
    },
  )

  app.get(
    '/api/security/tenants/:tenant_id',
    { preValidation: read, schema: { tags, params: TenantParams, response: { 200: TenantSchema, ...errors } } },
    async (request) => {
      const id = request.params.tenant_id
      const own = request.principal.tenant_id
      const tenant: TenantRow | undefined = own && own !== id ? undefined : await findTenant(svc.db, id)
      if (!tenant) throw new IdentityErrors.TenantNotFound(id)
      return tenantView(tenant)
    },
  )

  app.put(
    '/api/security/tenants/:tenant_id',
    {
      onRequest: auditAs('security.tenants_update'),
      preValidation: write,
      schema: { tags, params: TenantParams, body: UpdateScopeBody, response: { 200: TenantSchema, ...errors } },
    },
    async (request) => {
      const id = request.params.tenant_id
      audited(request, id)
      const { before, after } = await updateTenantCommand(svc, callerOf(request), id, request.body)
      request.audit.before = tenantView(before)
      request.audit.after = tenantView(after)
      return tenantView(after)
    },
  )

  const statusRoute = (action: string) => ({
    onRequest: auditAs(action),
    preValidation: write,
    schema: { tags, params: TenantParams, response: { 200: TenantSchema, ...errors } },
  })
  app.post('/api/security/tenants/:tenant_id/disable', statusRoute('security.tenants_disable'), async (request) =>
    changeStatus(request, request.params.tenant_id, SCOPE_STATUS.disabled),
  )
  app.post('/api/security/tenants/:tenant_id/enable', statusRoute('security.tenants_enable'), async (request) =>
    changeStatus(request, request.params.tenant_id, SCOPE_STATUS.active),
  )
}
