import { type Actor, type Principal, SYSTEM_ACTOR } from '@switchboard/contracts'
import type { FastifyRequest } from 'fastify'
import { CommonErrors } from './http/errors.ts'

/**
 * A tenant/workspace pair. As a filter, an empty value means "no restriction" — which only admin and service
 * principals ever carry (docs/api.md §4). As the scope of a record, both are set.
 */
export interface Scope {
  tenant_id: string
  workspace_id: string
}

export const NO_SCOPE: Scope = Object.freeze({ tenant_id: '', workspace_id: '' })

/**
 * Who is acting, in which scope, for which request: what a command takes instead of the Fastify request
 * (docs/conventions.md §3). Events and audit records are attributed from it.
 */
export interface Caller {
  actor: Actor
  scope: Scope
  /** the request's id, carried into events; absent for background work */
  request_id?: string
  /** the verified principal, when the caller came through the gateway */
  principal?: Principal
}

/**
 * The caller of a request: its principal, or — on an anonymous route — the system acting for the request, in
 * `scope` when the handler already knows it (a registration into a tenant).
 */
export function callerOf(request: FastifyRequest, scope?: Scope): Caller {
  const p = request.principal
  if (!p) return { actor: SYSTEM_ACTOR, scope: scope ?? NO_SCOPE, request_id: String(request.id) }
  return {
    actor: { user_id: p.user_id, kind: p.kind },
    scope: scope ?? { tenant_id: p.tenant_id, workspace_id: p.workspace_id },
    request_id: String(request.id),
    principal: p,
  }
}

/** Background work (consumers, workers, seeding): the system, in `scope` (default: none). */
export const systemCaller = (scope: Scope = NO_SCOPE): Caller => ({ actor: SYSTEM_ACTOR, scope })

/** The request scope as a filter: empty values mean "no restriction" (admin and service principals only). */
export function scopeOf(request: FastifyRequest): Scope {
  return { tenant_id: request.principal.tenant_id, workspace_id: request.principal.workspace_id }
}

/** A scope that must be concrete, to create a scoped record: 400 when the caller has none. */
export function concreteScope(from: FastifyRequest | Caller): Scope {
  const scope = 'actor' in from ? from.scope : scopeOf(from)
  if (!scope.tenant_id || !scope.workspace_id) {
    throw new CommonErrors.BadRequest(
      'tenant_id and workspace_id are required (X-Tenant-ID / X-Workspace-ID) for this principal',
    )
  }
  return scope
}

/** Adds `tenant_id = ? and workspace_id = ?` for the non-empty parts of the scope: every scoped query's filter. */
export function whereScope<QB extends { where: (...args: any[]) => QB }>(qb: QB, scope: Scope, table = ''): QB {
  const col = (c: string) => (table ? `${table}.${c}` : c)
  let q = qb
  if (scope.tenant_id) q = q.where(col('tenant_id'), '=', scope.tenant_id)
  if (scope.workspace_id) q = q.where(col('workspace_id'), '=', scope.workspace_id)
  return q
}

/** Does a record of scope `record` lie inside the filter `filter`? The in-memory twin of whereScope. */
export function inScope(record: Scope, filter: Scope): boolean {
  return (
    (!filter.tenant_id || record.tenant_id === filter.tenant_id) &&
    (!filter.workspace_id || record.workspace_id === filter.workspace_id)
  )
}
