import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { isUserVisible, visibleUserIds } from '../db/scoped-users.repository.ts'
import { listUserSessions } from '../db/sessions.repository.ts'
import { findUserById, findUsersByIds, type UserRow } from '../db/users.repository.ts'
import { DirectoryErrors } from '../directory-errors.ts'
import { revokeSession, revokeUserSessions, revokeUserTokens } from '../domain/revocation.ts'
import { authSessionViews } from '../domain/session-views.ts'
import { IdentityErrors } from '../errors.ts'
import { inTransaction } from '../events/publish.ts'
import {
  BatchRevokeResult,
  errorResponses,
  RevokeAllBody,
  RevokeAllResult,
  RevokeSessionBody,
  RevokeSessionResult,
  RevokeTokensBody,
  UserIdParams,
  UserIdsBody,
  UserQueryResult,
  UserRevokeResult,
  UserSecurityState,
  UserSessionsResult,
} from '../schemas/security.schemas.ts'
import { auditAs, requireAccess } from './access.ts'

const tags = ['security']

const tokenState = (u: UserRow) => ({
  token_version: Number(u.token_version),
  token_valid_after: u.token_valid_after,
})

/** Bodies whose fields are all optional may be left out entirely (a bare POST, as with curl -X POST). */
async function optionalBody(request: FastifyRequest) {
  request.body ??= {}
}

function securityState(u: UserRow) {
  return { user_id: u.id, role: u.role, status: u.status, ...tokenState(u), last_login: u.last_login }
}

/**
 * The security surface over users (spec, Security surface). With a tenant/workspace scope only users
 * linked by an agent or customer record in it exist; every other id answers like a missing user.
 */
export const securityUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const read = requireAccess('security.read')
  const write = requireAccess('security.write')

  async function visibleUser(request: FastifyRequest, id: string): Promise<UserRow> {
    const user = (await isUserVisible(app.db, id, scopeOf(request))) ? await findUserById(app.db, id) : undefined
    if (!user) throw new IdentityErrors.UserNotFound()
    return user
  }

  app.get(
    '/api/security/users/:id',
    {
      preValidation: read,
      schema: { tags, params: UserIdParams, response: { 200: UserSecurityState, ...errorResponses } },
    },
    async (request) => securityState(await visibleUser(request, request.params.id)),
  )

  // A preview: reads only, so security.read is enough although it is a POST.
  app.post(
    '/api/security/users/query',
    {
      onRequest: auditAs('security.users_query'),
      preValidation: read,
      schema: { tags, body: UserIdsBody, response: { 200: UserQueryResult, ...errorResponses } },
    },
    async (request) => {
      const ids = [...new Set(request.body.user_ids)]
      const visible = await visibleUserIds(app.db, ids, scopeOf(request))
      if (visible.size !== ids.length) throw new IdentityErrors.UserNotFound()
      const byId = new Map((await findUsersByIds(app.db, ids)).map((u) => [u.id, u]))
      const items = ids.map((id) => {
        const u = byId.get(id) as UserRow
        return {
          user_id: u.id,
          username: u.username,
          name: u.name,
          role: u.role,
          status: u.status,
          token_version: Number(u.token_version),
          next_token_version: Number(u.token_version) + 1,
          last_login: u.last_login,
          token_valid_after: u.token_valid_after,
        }
      })
      return { count: items.length, items }
    },
  )

  app.get(
    '/api/security/users/:id/sessions',
    {
      preValidation: read,
      schema: { tags, params: UserIdParams, response: { 200: UserSessionsResult, ...errorResponses } },
    },
    async (request) => {
      const user = await visibleUser(request, request.params.id)
      const sessions = await listUserSessions(app.db, user.id)
      const items = await authSessionViews(app.identity, sessions, { scope: scopeOf(request) })
      return { user_id: user.id, count: items.length, items }
    },
  )

  app.post(
    '/api/security/users/:id/sessions/revoke',
    {
      onRequest: auditAs('security.sessions_revoke'),
      preValidation: write,
      schema: {
        tags,
        params: UserIdParams,
        body: RevokeSessionBody,
        response: { 200: RevokeSessionResult, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params
      const { session_id, reason } = request.body
      request.audit.resource_id = id
      const result = await inTransaction(app, async (trx) => {
        if (!(await isUserVisible(trx, id, scopeOf(request)))) throw new IdentityErrors.UserNotFound()
        const before = await trx.selectFrom('auth_sessions').selectAll().where('id', '=', session_id).executeTakeFirst()
        const r = await revokeSession(
          { trx, outbox: app.outbox, from: request },
          session_id,
          reason ?? 'security.session_revoke',
          id,
        )
        // An already revoked session answers 200 with its current state: revoking is idempotent.
        if (!r || !before) throw new DirectoryErrors.SessionNotFound()
        return { before, after: r.session }
      })
      const snap = (s: typeof result.after) => ({
        session_id: s.id,
        status: s.status,
        token_version: Number(s.token_version),
        revoked_at: s.revoked_at,
      })
      request.audit.before = snap(result.before)
      request.audit.after = snap(result.after)
      return { user_id: id, ...snap(result.after) }
    },
  )

  app.post(
    '/api/security/users/:id/sessions/revoke-all',
    {
      onRequest: auditAs('security.sessions_revoke_all'),
      preValidation: [write, optionalBody],
      schema: {
        tags,
        params: UserIdParams,
        body: RevokeAllBody,
        response: { 200: RevokeAllResult, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params
      const body = request.body ?? {}
      request.audit.resource_id = id
      const revoked = await inTransaction(app, async (trx) => {
        if (!(await isUserVisible(trx, id, scopeOf(request)))) throw new IdentityErrors.UserNotFound()
        return revokeUserSessions({ trx, outbox: app.outbox, from: request }, id, {
          exceptSessionId: body.except_session_id ?? '',
          reason: body.reason ?? 'security.sessions_revoke_all',
        })
      })
      const items = revoked.map((s) => ({
        session_id: s.id,
        status: s.status,
        token_version: Number(s.token_version),
        revoked_at: s.revoked_at,
      }))
      request.audit.before = { active_sessions: items.map((s) => s.session_id) }
      request.audit.after = { revoked_sessions: items.map((s) => s.session_id) }
      return { user_id: id, count: items.length, except_session_id: body.except_session_id ?? null, items }
    },
  )

  app.post(
    '/api/security/users/:id/revoke-tokens',
    {
      onRequest: auditAs('security.users_revoke_tokens'),
      preValidation: [write, optionalBody],
      schema: {
        tags,
        params: UserIdParams,
        body: RevokeTokensBody,
        response: { 200: UserRevokeResult, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await inTransaction(app, async (trx) => {
        if (!(await isUserVisible(trx, id, scopeOf(request)))) throw new IdentityErrors.UserNotFound()
        const before = await findUserById(trx, id)
        const r = await revokeUserTokens(
          { trx, outbox: app.outbox, from: request },
          id,
          request.body?.reason ?? 'security.user_revoke',
        )
        if (!before || !r) throw new IdentityErrors.UserNotFound()
        return { before, after: r.user }
      })
      request.audit.before = tokenState(before)
      request.audit.after = tokenState(after)
      return { user_id: after.id, role: after.role, token_version: Number(after.token_version) }
    },
  )

  app.post(
    '/api/security/users/revoke-tokens',
    {
      onRequest: auditAs('security.users_batch_revoke_tokens'),
      preValidation: write,
      schema: { tags, body: UserIdsBody, response: { 200: BatchRevokeResult, ...errorResponses } },
    },
    async (request) => {
      const ids = [...new Set(request.body.user_ids)]
      request.audit.resource_id = ids.join(',')
      const changed = await inTransaction(app, async (trx) => {
        // All or nothing: one id outside the scope refuses the whole batch before anything changes.
        const visible = await visibleUserIds(trx, ids, scopeOf(request))
        if (visible.size !== ids.length) throw new IdentityErrors.UserNotFound()
        const ctx = { trx, outbox: app.outbox, from: request }
        const before = await findUsersByIds(trx, ids)
        const out: UserRow[] = []
        for (const id of ids) {
          const r = await revokeUserTokens(ctx, id, request.body.reason ?? 'security.batch_user_revoke')
          if (!r) throw new IdentityErrors.UserNotFound()
          out.push(r.user)
        }
        return { before, after: out }
      })
      request.audit.before = changed.before.map((u) => ({ user_id: u.id, ...tokenState(u) }))
      request.audit.after = changed.after.map((u) => ({ user_id: u.id, ...tokenState(u) }))
      const items = changed.after.map((u) => ({ user_id: u.id, token_version: Number(u.token_version) }))
      return { count: items.length, items }
    },
  )
}
