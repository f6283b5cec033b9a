import { callerOf, optionalBody, type RouteModule, scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { revokeAllUserSessionsCommand, revokeUserSessionCommand } from '../commands/security-users.commands.ts'
import { revokeManyUserTokensCommand, revokeUserTokensCommand } from '../commands/user-tokens.commands.ts'
import type { IdentityService } from '../context.ts'
import { isUserVisible, visibleUserIds } from '../db/scoped-users.repository.ts'
import { listUserSessions, type SessionRow } from '../db/sessions.repository.ts'
import { findUserById, findUsersByIds, type UserRow } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { sessionViewsFor } from '../queries/session-views.queries.ts'
import {
  BatchRevokeResult,
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
import { auditAs, managementErrors, requireAccess } from './access.ts'
import { tokenState } from './snapshots.ts'

const tags = ['security']

const securityState = (u: UserRow) => ({
  user_id: u.id,
  role: u.role,
  status: u.status,
  ...tokenState(u),
  last_login: u.last_login,
})

const revokedSession = (s: SessionRow) => ({
  session_id: s.id,
  status: s.status,
  token_version: Number(s.token_version),
  revoked_at: s.revoked_at,
})

/**
 * The security surface over users (services/identity/README.md). With a tenant/workspace scope only users
 * linked by an agent or customer record in it exist; every other id answers like a missing user.
 */
export const securityUserRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const read = requireAccess('security.read')
  const write = requireAccess('security.write')

  async function visibleUser(request: FastifyRequest, id: string): Promise<UserRow> {
    const user = (await isUserVisible(svc.db, id, scopeOf(request))) ? await findUserById(svc.db, id) : undefined
    if (!user) throw new IdentityErrors.UserNotFound()
    return user
  }

  app.get(
    '/api/security/users/:id',
    {
      preValidation: read,
      schema: { tags, params: UserIdParams, response: { 200: UserSecurityState, ...managementErrors } },
    },
    async (request) => securityState(await visibleUser(request, request.params.id)),
  )

  // A preview: reads only, so security.read is enough although it is a POST.
  app.post(
    '/api/security/users/query',
    {
      onRequest: auditAs('security.users_query'),
      preValidation: read,
      schema: { tags, body: UserIdsBody, response: { 200: UserQueryResult, ...managementErrors } },
    },
    async (request) => {
      const ids = [...new Set(request.body.user_ids)]
      const visible = await visibleUserIds(svc.db, ids, scopeOf(request))
      if (visible.size !== ids.length) throw new IdentityErrors.UserNotFound()
      const byId = new Map((await findUsersByIds(svc.db, ids)).map((u) => [u.id, u]))
      const items = ids.map((id) => {
        const u = byId.get(id) as UserRow
        return {
          user_id: u.id,
          username: u.username,
          name: u.name,
          role: u.role,
          admin_tenant_id: u.admin_tenant_id,
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
      schema: { tags, params: UserIdParams, response: { 200: UserSessionsResult, ...managementErrors } },
    },
    async (request) => {
      const user = await visibleUser(request, request.params.id)
      const sessions = await listUserSessions(svc.db, user.id)
      const items = await sessionViewsFor(svc, sessions, { scope: scopeOf(request) })
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
        response: { 200: RevokeSessionResult, ...managementErrors },
      },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await revokeUserSessionCommand(svc, callerOf(request), id, request.body)
      request.audit.before = revokedSession(before)
      request.audit.after = revokedSession(after)
      return { user_id: id, ...revokedSession(after) }
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
        response: { 200: RevokeAllResult, ...managementErrors },
      },
    },
    async (request) => {
      const { id } = request.params
      const body = request.body ?? {}
      request.audit.resource_id = id
      const items = (await revokeAllUserSessionsCommand(svc, callerOf(request), id, body)).map(revokedSession)
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
        response: { 200: UserRevokeResult, ...managementErrors },
      },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await revokeUserTokensCommand(svc, callerOf(request), {
        user_id: id,
        reason: request.body?.reason,
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
      schema: { tags, body: UserIdsBody, response: { 200: BatchRevokeResult, ...managementErrors } },
    },
    async (request) => {
      request.audit.resource_id = [...new Set(request.body.user_ids)].join(',')
      const { before, after } = await revokeManyUserTokensCommand(svc, callerOf(request), request.body)
      request.audit.before = before.map((u) => ({ user_id: u.id, ...tokenState(u) }))
      request.audit.after = after.map((u) => ({ user_id: u.id, ...tokenState(u) }))
      const items = after.map((u) => ({ user_id: u.id, token_version: Number(u.token_version) }))
      return { count: items.length, items }
    },
  )
}
