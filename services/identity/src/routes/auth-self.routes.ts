import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { scopeRefusal } from '../commands/scope-registry.ts'
import { logoutCurrent, logoutOthers } from '../commands/self-sessions.commands.ts'
import type { IdentityService } from '../context.ts'
import { listBindings } from '../db/bindings.repository.ts'
import { findSession, listUserSessions } from '../db/sessions.repository.ts'
import { findUserById, userView } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { scopeChoices } from '../queries/scope-choices.queries.ts'
import { sessionViewsFor } from '../queries/session-views.queries.ts'
import {
  LogoutCurrentResponse,
  LogoutOthersResponse,
  MeView,
  ScopeChoices,
  SessionList,
} from '../schemas/auth.schemas.ts'

const tags = ['auth']

/** The caller's own account and sessions; needs the gateway's principal. */
export const authSelfRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.get(
    '/api/v1/auth/me',
    { schema: { tags, response: { 200: MeView, ...errorResponses(401, 404) } } },
    async (request) => {
      const user = await findUserById(svc.db, request.principal.user_id)
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
    },
  )

  app.get(
    '/api/v1/auth/sessions',
    { schema: { tags, response: { 200: SessionList, ...errorResponses(401) } } },
    async (request) => {
      const { user_id, session_id, tenant_id, workspace_id } = request.principal
      const rows = await listUserSessions(svc.db, user_id, { limit: 100 })
      // The list is bounded; the caller's own session is always in it, so exactly one item is current.
      if (session_id && !rows.some((r) => r.id === session_id)) {
        const own = await findSession(svc.db, session_id)
        if (own?.user_id === user_id) rows.push(own)
      }
      const items = await sessionViewsFor(svc, rows, {
        scope: { tenant_id, workspace_id },
        currentSessionId: session_id,
      })
      return { count: items.length, items }
    },
  )

  // The scopes the caller may log in to (a console's workspace switcher; login names one with tenant_id/workspace_id).
  app.get(
    '/api/v1/auth/scopes',
    { schema: { tags, response: { 200: ScopeChoices, ...errorResponses(401) } } },
    async (request) => {
      const { user_id, tenant_id, workspace_id } = request.principal
      const bindings = await listBindings(svc.db, user_id)
      const refusals = await Promise.all(bindings.map((b) => scopeRefusal(svc.db, b, 'login')))
      const items = await scopeChoices(
        svc.db,
        bindings.filter((_, i) => !refusals[i]),
      )
      return { count: items.length, current: { tenant_id, workspace_id }, items }
    },
  )

  app.post(
    '/api/v1/auth/sessions/logout-current',
    { schema: { tags, response: { 200: LogoutCurrentResponse, ...errorResponses(401) } } },
    async (request) => {
      const { session_id, token_version } = await logoutCurrent(svc, callerOf(request))
      return { session_id, status: 'revoked' as const, token_version }
    },
  )

  app.post(
    '/api/v1/auth/sessions/logout-others',
    { schema: { tags, response: { 200: LogoutOthersResponse, ...errorResponses(401) } } },
    async (request) => logoutOthers(svc, callerOf(request)),
  )
}
