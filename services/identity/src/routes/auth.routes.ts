import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { findSession, listUserSessions } from '../db/sessions.repository.ts'
import { findUserById, identityDb, userView } from '../db/users.repository.ts'
import { login, refresh, register } from '../domain/auth-flow.ts'
import { revokeSession, revokeUserSessions } from '../domain/revocation.ts'
import { readSelectors } from '../domain/scope-selection.ts'
import { authSessionViews } from '../domain/session-views.ts'
import { IdentityErrors } from '../errors.ts'
import { inTransaction } from '../events/publish.ts'
import {
  errors,
  LoginBody,
  LogoutCurrentResponse,
  LogoutOthersResponse,
  MeView,
  RefreshBody,
  RegisterBody,
  SessionList,
  TokenResponse,
} from '../schemas/auth.schemas.ts'
import { clientInfo } from './client.ts'

const tags = ['auth']

function selectors(body: { tenant_id?: string; workspace_id?: string }, headers: Record<string, any>) {
  const s = readSelectors(body, headers)
  if (!s.ok) throw new IdentityErrors.ScopeSelectorConflict(s.message)
  return s.value
}

/** Anonymous: register, login, refresh (API-NOTES.md, Principals). */
export const authPublicRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/v1/auth/register',
    { schema: { tags, body: RegisterBody, response: { 201: TokenResponse, ...errors(400, 409) } } },
    async (request, reply) => {
      const pair = await register(app, request.body, selectors(request.body, request.headers), clientInfo(request))
      return reply.code(201).send(pair.response)
    },
  )

  app.post(
    '/api/v1/auth/login',
    { schema: { tags, body: LoginBody, response: { 200: TokenResponse, ...errors(400, 401, 403) } } },
    async (request) => {
      const pair = await login(app, request.body, selectors(request.body, request.headers), clientInfo(request))
      return pair.response
    },
  )

  app.post(
    '/api/v1/auth/refresh',
    { schema: { tags, body: RefreshBody, response: { 200: TokenResponse, ...errors(400, 401) } } },
    async (request) => (await refresh(app, request.body, clientInfo(request))).response,
  )
}

/** The caller's own account and sessions; needs the gateway's principal. */
export const authSelfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/v1/auth/me', { schema: { tags, response: { 200: MeView, ...errors(401, 404) } } }, async (request) => {
    const user = await findUserById(identityDb(app), request.principal.user_id)
    if (!user) throw new IdentityErrors.UserNotFound()
    return {
      ...userView(user),
      phone: user.phone,
      last_login: user.last_login,
      created_at: user.created_at,
      tenant_id: request.principal.tenant_id,
      workspace_id: request.principal.workspace_id,
      session_id: request.principal.session_id,
    }
  })

  app.get(
    '/api/v1/auth/sessions',
    { schema: { tags, response: { 200: SessionList, ...errors(401) } } },
    async (request) => {
      const { user_id, session_id, tenant_id, workspace_id } = request.principal
      const rows = await listUserSessions(identityDb(app), user_id, { limit: 100 })
      // The list is bounded; the caller's own session is always in it, so exactly one item is current.
      if (session_id && !rows.some((r) => r.id === session_id)) {
        const own = await findSession(identityDb(app), session_id)
        if (own?.user_id === user_id) rows.push(own)
      }
      const items = await authSessionViews(app.identity, rows, {
        scope: { tenant_id, workspace_id },
        currentSessionId: session_id,
      })
      return { count: items.length, items }
    },
  )

  app.post(
    '/api/v1/auth/sessions/logout-current',
    { schema: { tags, response: { 200: LogoutCurrentResponse, ...errors(401) } } },
    async (request) => {
      const { user_id, session_id } = request.principal
      const result = session_id
        ? await inTransaction(app, (trx) =>
            revokeSession({ trx, outbox: app.outbox, from: request }, session_id, 'logout', user_id),
          )
        : undefined
      if (!result?.changed) throw new IdentityErrors.SessionNotActive()
      return { session_id, status: 'revoked' as const, token_version: Number(result.session.token_version) }
    },
  )

  app.post(
    '/api/v1/auth/sessions/logout-others',
    { schema: { tags, response: { 200: LogoutOthersResponse, ...errors(401) } } },
    async (request) => {
      const { user_id, session_id } = request.principal
      const current = session_id ? await findSession(identityDb(app), session_id) : undefined
      if (!current || current.user_id !== user_id || current.status !== 'active') {
        throw new IdentityErrors.SessionNotActive()
      }
      const revoked = await inTransaction(app, (trx) =>
        revokeUserSessions({ trx, outbox: app.outbox, from: request }, user_id, {
          exceptSessionId: session_id,
          reason: 'logout_others',
        }),
      )
      return { current_session_id: session_id, count: revoked.length }
    },
  )
}
