import { hasPermission } from '@switchboard/auth'
import { errorResponses } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { IdentityErrors } from '../errors.ts'

const MANAGEMENT_KINDS = new Set(['agent', 'admin', 'service'])

/**
 * Defence in depth: the gateway already checked kind and permission, but a service trusts nothing it can
 * check cheaply. `permissions` are all required.
 */
export function requireAccess(...permissions: string[]) {
  return async function access(request: FastifyRequest) {
    const p = request.principal
    if (!MANAGEMENT_KINDS.has(p.kind)) throw new IdentityErrors.PrincipalKind(p.kind)
    for (const needed of permissions) {
      if (!hasPermission(p.permissions, needed)) throw new IdentityErrors.PermissionMissing(needed)
    }
  }
}

/**
 * The tenant registry's writes: platform administrators and services only, i.e. an admin or service principal
 * whose token is unscoped (selectors may narrow it; a tenant-bound token never qualifies). After requireAccess.
 */
export function requirePlatform(what: string) {
  return async function platformOnly(request: FastifyRequest) {
    const p = request.principal
    if ((p.kind !== 'admin' && p.kind !== 'service') || p.token_tenant_id || p.token_workspace_id) {
      throw new IdentityErrors.PlatformOnly(what)
    }
  }
}

/**
 * Names the audit action where the path alone is ambiguous (`…/sessions/revoke` and `/tokens/revoke` would
 * both derive `security.revoke`). A route-level onRequest hook, so refusals before the handler carry it too.
 */
export function auditAs(action: string) {
  return async function auditAction(request: FastifyRequest) {
    request.audit.action = action
  }
}

/** The error answers of the management routes; 404 bodies are identical for missing and out-of-scope records. */
export const managementErrors = errorResponses(400, 401, 403, 404)
