import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import {
  createWorkspace,
  setWorkspaceStatusCommand,
  updateWorkspaceCommand,
  type WorkspaceChange,
} from '../commands/workspaces.commands.ts'
import type { IdentityService } from '../context.ts'
import { findTenant, findWorkspace, listWorkspaces, workspaceView } from '../db/tenants.repository.ts'
import { SCOPE_STATUS, type ScopeStatusValue } from '../domain/scope-registry.ts'
import { IdentityErrors } from '../errors.ts'
import {
  CreateWorkspaceBody,
  RegistryListQuery,
  TenantParams,
  UpdateScopeBody,
  WorkspacePage,
  WorkspaceParams,
  WorkspaceSchema,
} from '../schemas/tenants.schemas.ts'
import { auditAs, managementErrors, requireAccess, requirePlatform } from './access.ts'

const tags = ['tenants']

/** A tenant's workspaces: the same rules as the tenants they belong to (tenants.routes.ts). */
export const workspaceRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const read = requireAccess('security.read')
  const write = [requireAccess('security.write'), requirePlatform('manage workspaces')]

  /** A tenant the request may see, or its 404. */
  async function visibleTenant(request: FastifyRequest, id: string) {
    const own = request.principal.tenant_id
    const tenant = own && own !== id ? undefined : await findTenant(svc.db, id)
    if (!tenant) throw new IdentityErrors.TenantNotFound(id)
    return tenant
  }

  function audited(request: FastifyRequest, tenantId: string, id: string) {
    request.audit.resource_type = 'workspaces'
    request.audit.resource_id = `${tenantId}/${id}`
    request.audit.tenant_id = tenantId
    request.audit.workspace_id = id
  }

  async function changeStatus(request: FastifyRequest, tenantId: string, id: string, status: ScopeStatusValue) {
    audited(request, tenantId, id)
    const change: WorkspaceChange = await setWorkspaceStatusCommand(svc, callerOf(request), tenantId, id, status)
    request.audit.before = { status: change.before.status }
    request.audit.after = { status: change.after.status }
    return workspaceView(change.after)
  }

  app.post(
    '/api/security/tenants/:tenant_id/workspaces',
    {
      onRequest: auditAs('security.workspaces_create'),
      preValidation: write,
      schema: {
        tags,
        params: TenantParams,
        body: CreateWorkspaceBody,
        response: { 201: WorkspaceSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const tenantId = request.params.tenant_id
      audited(request, tenantId, request.body.id)
      const row = await createWorkspace(svc, callerOf(request), tenantId, request.body)
      request.audit.before = null
      request.audit.after = workspaceView(row)
      return reply.code(201).send(workspaceView(row))
    },
  )

  app.get(
    '/api/security/tenants/:tenant_id/workspaces',
    {
      preValidation: read,
      schema: {
        tags,
        params: TenantParams,
        querystring: RegistryListQuery,
        response: { 200: WorkspacePage, ...managementErrors },
      },
    },
    async (request) => {
      const tenant = await visibleTenant(request, request.params.tenant_id)
      const window = pageWindow(request.query)
      const { rows, total } = await listWorkspaces(svc.db, tenant.id, { status: request.query.status }, window)
      return pageOf(rows.map(workspaceView), total, window)
    },
  )

  app.get(
    '/api/security/tenants/:tenant_id/workspaces/:workspace_id',
    {
      preValidation: read,
      schema: { tags, params: WorkspaceParams, response: { 200: WorkspaceSchema, ...managementErrors } },
    },
    async (request) => {
      const { tenant_id, workspace_id } = request.params
      await visibleTenant(request, tenant_id)
      const row = await findWorkspace(svc.db, tenant_id, workspace_id)
      if (!row) throw new IdentityErrors.WorkspaceNotFound(`${tenant_id}/${workspace_id}`)
      return workspaceView(row)
    },
  )

  app.put(
    '/api/security/tenants/:tenant_id/workspaces/:workspace_id',
    {
      onRequest: auditAs('security.workspaces_update'),
      preValidation: write,
      schema: {
        tags,
        params: WorkspaceParams,
        body: UpdateScopeBody,
        response: { 200: WorkspaceSchema, ...managementErrors },
      },
    },
    async (request) => {
      const { tenant_id, workspace_id } = request.params
      audited(request, tenant_id, workspace_id)
      const { before, after } = await updateWorkspaceCommand(
        svc,
        callerOf(request),
        tenant_id,
        workspace_id,
        request.body,
      )
      request.audit.before = workspaceView(before)
      request.audit.after = workspaceView(after)
      return workspaceView(after)
    },
  )

  const statusRoute = (action: string) => ({
    onRequest: auditAs(action),
    preValidation: write,
    schema: { tags, params: WorkspaceParams, response: { 200: WorkspaceSchema, ...managementErrors } },
  })
  app.post(
    '/api/security/tenants/:tenant_id/workspaces/:workspace_id/disable',
    statusRoute('security.workspaces_disable'),
    async (request) =>
      changeStatus(request, request.params.tenant_id, request.params.workspace_id, SCOPE_STATUS.disabled),
  )
  app.post(
    '/api/security/tenants/:tenant_id/workspaces/:workspace_id/enable',
    statusRoute('security.workspaces_enable'),
    async (request) =>
      changeStatus(request, request.params.tenant_id, request.params.workspace_id, SCOPE_STATUS.active),
  )
}
