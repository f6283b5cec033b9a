import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { changeUserRole, createOperator } from '../commands/operators.commands.ts'
import type { IdentityService } from '../context.ts'
import { type UserRow, userView } from '../db/users.repository.ts'
import { SET_PASSWORD_PATH } from '../domain/set-password.ts'
import { CreateOperatorBody, OperatorCreated, OperatorState, RoleBody } from '../schemas/operators.schemas.ts'
import { UserIdParams } from '../schemas/security.schemas.ts'
import { auditAs, requireAccess } from './access.ts'

const tags = ['security']

const operatorState = (u: UserRow) => ({
  user_id: u.id,
  username: u.username,
  role: u.role,
  admin_tenant_id: u.admin_tenant_id,
  status: u.status,
  token_version: Number(u.token_version),
  token_valid_after: u.token_valid_after,
})

/**
 * Operator administration (services/identity/README.md, "Operators"): creating admin, supervisor and agent
 * accounts, and changing a user's role. The rules (reach, last admin) are the commands'.
 */
export const operatorRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const write = requireAccess('security.write')

  app.post(
    '/api/security/users',
    {
      onRequest: auditAs('security.users_create'),
      preValidation: write,
      schema: {
        tags,
        body: CreateOperatorBody,
        response: { 201: OperatorCreated, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, agent, setPassword } = await createOperator(svc, callerOf(request), request.body)
      const answer = {
        user: { ...userView(user), admin_tenant_id: user.admin_tenant_id },
        tenant_id: agent?.tenant_id ?? '',
        workspace_id: agent?.workspace_id ?? '',
        agent_id: agent?.id ?? null,
        set_password: setPassword ? { ...setPassword, path: SET_PASSWORD_PATH } : null,
      }
      request.audit.resource_id = user.id
      if (agent) Object.assign(request.audit, { tenant_id: agent.tenant_id, workspace_id: agent.workspace_id })
      request.audit.before = null
      // The one-time token stays out of the audit record; when the link expires is kept.
      const { set_password: _link, ...recorded } = answer
      request.audit.after = { ...recorded, link_expires_at: setPassword?.expires_at ?? null }
      return reply.code(201).send(answer)
    },
  )

  app.put(
    '/api/security/users/:id/role',
    {
      onRequest: auditAs('security.users_role'),
      preValidation: write,
      schema: {
        tags,
        params: UserIdParams,
        body: RoleBody,
        response: { 200: OperatorState, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await changeUserRole(svc, callerOf(request), id, request.body)
      request.audit.before = operatorState(before)
      request.audit.after = operatorState(after)
      return operatorState(after)
    },
  )
}
