import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { DeniedToken, Nullable, SessionTokenState, UserTokenState } from '@switchboard/contracts'
import { deniedToken, listActiveDenied } from '../db/denylist.repository.ts'
import { findSession, sessionTokenState } from '../db/sessions.repository.ts'
import { findUserById, identityDb, userTokenState } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { errors } from '../schemas/auth.schemas.ts'

const Id = Type.String({ minLength: 1, maxLength: 128 })

/**
 * The gateway's token-state cache asks here on a miss (ARCHITECTURE.md §1 rule 3): identity's rows are the
 * source of truth. Service principals only.
 */
export const internalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new IdentityErrors.ServiceOnly()
  })

  app.get(
    '/internal/token-state',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ user_id: Type.Optional(Id), session_id: Type.Optional(Id) }),
        response: {
          200: Type.Object({ user: Nullable(UserTokenState), session: Nullable(SessionTokenState) }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (request) => {
      const db = identityDb(app)
      const { user_id, session_id } = request.query
      const [user, session] = await Promise.all([
        user_id ? findUserById(db, user_id) : undefined,
        session_id ? findSession(db, session_id) : undefined,
      ])
      return { user: user ? userTokenState(user) : null, session: session ? sessionTokenState(session) : null }
    },
  )

  app.get(
    '/internal/token-state/denied',
    {
      schema: {
        hide: true,
        response: { 200: Type.Object({ items: Type.Array(DeniedToken) }), ...errors(401, 403) },
      },
    },
    async () => {
      const rows = await listActiveDenied(identityDb(app), new Date().toISOString())
      return { items: rows.map(deniedToken) }
    },
  )
}
