import { createInternalPrincipalVerifier } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { CommonErrors } from './errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal
  }
}

/**
 * Policy by encapsulation: routes registered inside a context that called this need the principal the
 * gateway signed; routes outside it (public, health) do not. Anything else is refused before a handler runs.
 */
export function requirePrincipal(app: FastifyInstance, internalSecret: string) {
  if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', null as unknown as Principal)
  // verified tokens are cached (the gateway reuses one per access token), so the hot path skips the HMAC
  const verify = createInternalPrincipalVerifier(internalSecret)
  app.addHook('onRequest', async (request) => {
    const token = request.headers[PRINCIPAL_HEADER]
    if (typeof token !== 'string' || token.length === 0) throw new CommonErrors.PrincipalMissing()
    try {
      request.principal = await verify(token)
    } catch {
      throw new CommonErrors.PrincipalMissing()
    }
  })
}

/** The request scope as a filter: empty values mean "no restriction" (admin and service principals only). */
export function scopeOf(request: FastifyRequest): { tenant_id: string; workspace_id: string } {
  return { tenant_id: request.principal.tenant_id, workspace_id: request.principal.workspace_id }
}

/** A scope that must be concrete to create a scoped record. */
export function concreteScope(request: FastifyRequest): { tenant_id: string; workspace_id: string } {
  const scope = scopeOf(request)
  if (!scope.tenant_id || !scope.workspace_id) {
    throw new CommonErrors.BadRequest(
      'tenant_id and workspace_id are required (X-Tenant-ID / X-Workspace-ID) for this principal',
    )
  }
  return scope
}

/** Adds `tenant_id = ? and workspace_id = ?` for the non-empty parts of the scope. */
export function whereScope<QB extends { where: (...args: any[]) => QB }>(
  qb: QB,
  scope: { tenant_id: string; workspace_id: string },
  table = '',
): QB {
  const col = (c: string) => (table ? `${table}.${c}` : c)
  let q = qb
  if (scope.tenant_id) q = q.where(col('tenant_id'), '=', scope.tenant_id)
  if (scope.workspace_id) q = q.where(col('workspace_id'), '=', scope.workspace_id)
  return q
}
