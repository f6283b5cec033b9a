import { hasPermission } from '@switchboard/auth'
import type { FastifyRequest } from 'fastify'
import { DirectoryErrors } from '../directory-errors.ts'

const MANAGEMENT_KINDS = new Set(['agent', 'admin', 'service'])

/**
 * Defence in depth: the gateway already checked kind and permission, but a service trusts nothing it can
 * check cheaply. `permissions` are all required.
 */
export function requireAccess(...permissions: string[]) {
  return async function access(request: FastifyRequest) {
    const p = request.principal
    if (!MANAGEMENT_KINDS.has(p.kind)) throw new DirectoryErrors.PrincipalKind(p.kind)
    for (const needed of permissions) {
      if (!hasPermission(p.permissions, needed)) throw new DirectoryErrors.PermissionMissing(needed)
    }
  }
}

/** Whether the principal's own token is unscoped (platform admin or service), whatever selectors narrowed. */
export const tokenUnscoped = (request: FastifyRequest) =>
  (request.principal.kind === 'admin' || request.principal.kind === 'service') &&
  !request.principal.token_tenant_id &&
  !request.principal.token_workspace_id

/**
 * Names the audit action where the path alone is ambiguous (`…/sessions/revoke` and `/tokens/revoke` would
 * both derive `security.revoke`). A route-level onRequest hook, so refusals before the handler carry it too.
 */
export function auditAs(action: string) {
  return async function auditAction(request: FastifyRequest) {
    request.audit.action = action
  }
}
