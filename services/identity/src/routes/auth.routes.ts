import { callerOf, errorResponses, optionalBody, type RouteModule } from '@switchboard/platform'
import { login, refresh, register } from '../commands/auth.commands.ts'
import { logoutByRefreshToken } from '../commands/self-sessions.commands.ts'
import { setPasswordWithToken } from '../commands/set-password.commands.ts'
import type { IdentityService } from '../context.ts'
import { readSelectors } from '../domain/scope-selection.ts'
import { IdentityErrors } from '../errors.ts'
import {
  LoginBadRequest,
  LoginBody,
  LogoutCurrentResponse,
  RefreshBody,
  RegisterBody,
  type ScopeChoice,
  TokenResponse,
} from '../schemas/auth.schemas.ts'
import { SetPasswordBody, SetPasswordResult } from '../schemas/operators.schemas.ts'
import { browserAnswer, clearCookie, isBrowser, isHttps, presentedRefreshToken } from './browser-session.ts'
import { clientInfo } from './client.ts'

const tags = ['auth']

function selectors(body: { tenant_id?: string; workspace_id?: string }, headers: Record<string, any>) {
  const s = readSelectors(body, headers)
  if (!s.ok) throw new IdentityErrors.ScopeSelectorConflict(s.message)
  return s.value
}

/** Anonymous: register, login, refresh, logout, set-password (docs/api.md §2); cookie mode for browsers. */
export const authPublicRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.post(
    '/api/v1/auth/register',
    { schema: { tags, body: RegisterBody, response: { 201: TokenResponse, ...errorResponses(400, 403, 404, 409) } } },
    async (request, reply) => {
      const scope = selectors(request.body, request.headers)
      const client = clientInfo(request, svc.trustedProxies)
      const pair = await register(svc, callerOf(request), request.body, scope, client)
      return reply.code(201).send(pair.response)
    },
  )

  app.post(
    '/api/v1/auth/login',
    {
      schema: {
        tags,
        body: LoginBody,
        response: { 200: TokenResponse, 400: LoginBadRequest, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const scope = selectors(request.body, request.headers)
      const client = clientInfo(request, svc.trustedProxies)
      let pair: Awaited<ReturnType<typeof login>>
      try {
        pair = await login(svc, callerOf(request), request.body, scope, client)
      } catch (err) {
        const scopes = (err as { scopes?: ScopeChoice[] }).scopes
        if (!(err instanceof IdentityErrors.ScopeRequired) || !scopes) throw err
        // The chooser's list rides on the documented error body (docs/api.md §2).
        const { code, message } = err
        return reply.code(400).send({ error: 'bad_request', code, message, request_id: String(request.id), scopes })
      }
      return isBrowser(request) ? browserAnswer(reply, pair, isHttps(request, svc.trustedProxies)) : pair.response
    },
  )

  app.post(
    '/api/v1/auth/refresh',
    {
      preValidation: optionalBody,
      schema: { tags, body: RefreshBody, response: { 200: TokenResponse, ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => {
      const token = presentedRefreshToken(request, request.body)
      const pair = await refresh(svc, callerOf(request), token, clientInfo(request, svc.trustedProxies))
      return isBrowser(request) ? browserAnswer(reply, pair, isHttps(request, svc.trustedProxies)) : pair.response
    },
  )

  // Ends the auth session of a refresh token (the browser's cookie, or a JSON client's body) and drops the cookie.
  app.post(
    '/api/v1/auth/logout',
    {
      preValidation: optionalBody,
      schema: { tags, body: RefreshBody, response: { 200: LogoutCurrentResponse, ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => {
      const token = presentedRefreshToken(request, request.body)
      // The cookie goes even when the token is refused: the browser asked to be logged out.
      if (isBrowser(request)) clearCookie(reply, isHttps(request, svc.trustedProxies))
      return logoutByRefreshToken(svc, callerOf(request), token)
    },
  )

  // The one-time link of an operator account created without a password (POST /api/security/users).
  app.post(
    '/api/v1/auth/set-password',
    { schema: { tags, body: SetPasswordBody, response: { 200: SetPasswordResult, ...errorResponses(400) } } },
    async (request) => setPasswordWithToken(svc, callerOf(request), request.body),
  )
}
