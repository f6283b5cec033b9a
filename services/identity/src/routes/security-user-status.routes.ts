import { Type } from '@sinclair/typebox'
import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { setUserStatusCommand } from '../commands/security-users.commands.ts'
import type { IdentityService } from '../context.ts'
import { USER_STATUS, type UserRow } from '../db/users.repository.ts'
import { UserIdParams, UserSecurityState } from '../schemas/security.schemas.ts'
import { auditAs, managementErrors, requireAccess } from './access.ts'

const StatusBody = Type.Object(
  {
    status: Type.Union([Type.Literal(USER_STATUS.active), Type.Literal(USER_STATUS.inactive)]),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)

const state = (u: UserRow) => ({
  user_id: u.id,
  role: u.role,
  status: u.status,
  token_version: Number(u.token_version),
  token_valid_after: u.token_valid_after,
  last_login: u.last_login,
})

/** Activating and deactivating a user: tokens of a user who is not active are refused (docs/api.md §2). */
export const securityUserStatusRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.put(
    '/api/security/users/:id/status',
    {
      onRequest: auditAs('security.users_status'),
      preValidation: requireAccess('security.write'),
      schema: {
        tags: ['security'],
        params: UserIdParams,
        body: StatusBody,
        response: { 200: UserSecurityState, ...managementErrors, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await setUserStatusCommand(svc, callerOf(request), id, request.body)
      request.audit.before = state(before)
      request.audit.after = state(after)
      return state(after)
    },
  )
}
