import { expandPermissions, type PermissionTable, resolveScope } from '@switchboard/auth'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { scopeError } from '../errors.ts'

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name]
  return typeof v === 'string' ? v.trim() : Array.isArray(v) ? v.join(',') : undefined
}

function query(request: FastifyRequest, name: string): string | undefined {
  const q = request.url.indexOf('?')
  if (q === -1) return undefined
  const all = new URLSearchParams(request.url.slice(q + 1)).getAll(name)
  // Repeating a selector is a disagreement in itself unless every copy is equal.
  return all.length === 0 ? undefined : new Set(all).size === 1 ? all[0] : all.join(',')
}

/**
 * Request-scope guard (docs/api.md §4): the token's scope, narrowed by selectors only for unscoped
 * admin/service tokens. Builds the principal that travels upstream with that effective scope.
 */
export function installScopeGuard(
  app: FastifyInstance,
  table: PermissionTable | undefined,
  opts: { anonymous?: boolean } = {},
) {
  // The verifier hands back the same claims object for every request with the same token, so the
  // expansion (a set and a sort) is done once per token rather than once per request.
  const expanded = new WeakMap<object, string[]>()
  const permissionsOf = (claims: { roles: string[]; permissions?: string[] }) => {
    let p = expanded.get(claims)
    if (!p) {
      p = expandPermissions(claims.roles, claims.permissions, table)
      expanded.set(claims, p)
    }
    return p
  }
  app.addHook('onRequest', (request, _reply, done) => {
    const claims = request.gw.claims
    const kind = request.gw.kind
    // Anonymous only where the context admits it (class `optional`): then no principal travels upstream.
    if (!claims || !kind) return done(opts.anonymous ? undefined : new Error('scope guard reached without claims'))
    const r = resolveScope({
      kind,
      tokenTenant: claims.tenant_id,
      tokenWorkspace: claims.workspace_id,
      headerTenant: header(request, 'x-tenant-id'),
      queryTenant: query(request, 'tenant_id'),
      headerWorkspace: header(request, 'x-workspace-id'),
      queryWorkspace: query(request, 'workspace_id'),
    })
    if (!r.ok) return done(scopeError(r.status, r.code, r.message))
    request.gw.principal = {
      user_id: claims.user_id,
      kind,
      roles: claims.roles,
      permissions: permissionsOf(claims),
      tenant_id: r.tenant_id,
      workspace_id: r.workspace_id,
      session_id: claims.session_id,
      jti: claims.jti,
      token_tenant_id: claims.tenant_id,
      token_workspace_id: claims.workspace_id,
    }
    done()
  })
}
