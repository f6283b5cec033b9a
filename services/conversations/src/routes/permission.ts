import { hasPermission } from '@switchboard/auth'
import type { scopeOf } from '@switchboard/platform'
import { ConversationErrors } from '../errors.ts'

/** A request as the platform's helpers take it (this service has no direct Fastify dependency). */
export type Request = Parameters<typeof scopeOf>[0]

/**
 * The routes this service serves under identity's prefixes (`/api/agents/…`, `/api/customers/…`) check the
 * resource permission the gateway checked (docs/api.md §3: `agents.read`, `agents.write`, `customers.read`) once
 * more: a service trusts nothing it can check cheaply.
 */
export function requirePermission(needed: string) {
  return async function permission(request: Request) {
    if (!hasPermission(request.principal.permissions, needed)) throw new ConversationErrors.PermissionMissing(needed)
  }
}
