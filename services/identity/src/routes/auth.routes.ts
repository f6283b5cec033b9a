import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { login, refresh, register } from '../commands/auth.commands.ts'
import { setPasswordWithToken } from '../commands/set-password.commands.ts'
import type { IdentityService } from '../context.ts'
import { readSelectors } from '../domain/scope-selection.ts'
import { IdentityErrors } from '../errors.ts'
import { LoginBody, RefreshBody, RegisterBody, TokenResponse } from '../schemas/auth.schemas.ts'
import { SetPasswordBody, SetPasswordResult } from '../schemas/operators.schemas.ts'
import { clientInfo } from './client.ts'

const tags = ['auth']

function selectors(body: { tenant_id?: string; workspace_id?: string }, headers: Record<string, any>) {
  const s = readSelectors(body, headers)
  if (!s.ok) throw new IdentityErrors.ScopeSelectorConflict(s.message)
  return s.value
}

/** Anonymous: register, login, refresh, set-password (docs/api.md §3). */
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
      schema: { tags, body: LoginBody, response: { 200: TokenResponse, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      const scope = selectors(request.body, request.headers)
      const client = clientInfo(request, svc.trustedProxies)
      return (await login(svc, callerOf(request), request.body, scope, client)).response
    },
  )

  app.post(
    '/api/v1/auth/refresh',
    { schema: { tags, body: RefreshBody, response: { 200: TokenResponse, ...errorResponses(400, 401, 403) } } },
    async (request) =>
      (await refresh(svc, callerOf(request), request.body, clientInfo(request, svc.trustedProxies))).response,
  )

  // The one-time link of an operator account created without a password (POST /api/security/users).
  app.post(
    '/api/v1/auth/set-password',
    { schema: { tags, body: SetPasswordBody, response: { 200: SetPasswordResult, ...errorResponses(400) } } },
    async (request) => setPasswordWithToken(svc, callerOf(request), request.body),
  )
}
