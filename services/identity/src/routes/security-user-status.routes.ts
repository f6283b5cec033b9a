import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { scopeOf } from '@switchboard/platform'
import { isUserVisible } from '../db/scoped-users.repository.ts'
import { findUserById, USER_STATUS, type UserRow } from '../db/users.repository.ts'
import { setUserStatus } from '../domain/revocation.ts'
import { IdentityErrors } from '../errors.ts'
import { inTransaction } from '../events/publish.ts'
import { errorResponses, UserIdParams, UserSecurityState } from '../schemas/security.schemas.ts'
import { auditAs, requireAccess } from './access.ts'

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

/**
 * Activating and deactivating a user (the spec's "non-active user" acceptance rule needs a way in). The change
 * and its token-state event commit together, so every gateway replica refuses the user's tokens at once.
 */
export const securityUserStatusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/api/security/users/:id/status',
    {
      onRequest: auditAs('security.users_status'),
      preValidation: requireAccess('security.write'),
      schema: {
        tags: ['security'],
        params: UserIdParams,
        body: StatusBody,
        response: { 200: UserSecurityState, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params
      const { status, reason } = request.body
      request.audit.resource_id = id
      if (status === USER_STATUS.inactive && id === request.principal.user_id)
        throw new IdentityErrors.CannotDeactivateSelf()
      const result = await inTransaction(app, async (trx) => {
        const before = (await isUserVisible(trx, id, scopeOf(request))) ? await findUserById(trx, id) : undefined
        if (!before) throw new IdentityErrors.UserNotFound()
        if (before.status === status) return { before, after: before }
        const after = await setUserStatus(
          { trx, outbox: app.outbox, from: request },
          id,
          status,
          reason ?? `status_${status}`,
        )
        return { before, after: after ?? before }
      })
      request.audit.before = state(result.before)
      request.audit.after = state(result.after)
      return state(result.after)
    },
  )
}
