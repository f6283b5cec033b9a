import type { PrincipalKind } from '@switchboard/contracts'

export interface ScopeInput {
  kind: PrincipalKind
  tokenTenant?: string | undefined
  tokenWorkspace?: string | undefined
  headerTenant?: string | undefined
  queryTenant?: string | undefined
  headerWorkspace?: string | undefined
  queryWorkspace?: string | undefined
}

export const ScopeErrorCode = {
  selectorConflict: 'SCOPE_SELECTOR_CONFLICT',
  selectorInvalid: 'SCOPE_SELECTOR_INVALID',
  conflict: 'SCOPE_CONFLICT',
  widening: 'SCOPE_WIDENING',
  workspaceWithoutTenant: 'SCOPE_WORKSPACE_WITHOUT_TENANT',
  required: 'SCOPE_REQUIRED',
} as const
export type ScopeErrorCode = (typeof ScopeErrorCode)[keyof typeof ScopeErrorCode]

export type ScopeResult =
  | { ok: true; tenant_id: string; workspace_id: string }
  | { ok: false; status: 400 | 403; code: ScopeErrorCode; message: string }

/** Scope ids are operator-chosen slugs; anything else in a selector is refused before it reaches a query. */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

type Dim = { ok: true; value: string } | Extract<ScopeResult, { ok: false }>

function fail(status: 400 | 403, code: ScopeErrorCode, message: string): Extract<ScopeResult, { ok: false }> {
  return { ok: false, status, code, message }
}

function resolveDim(name: string, kind: PrincipalKind, token: string, header: string, query: string): Dim {
  if (header && query && header !== query) {
    return fail(400, ScopeErrorCode.selectorConflict, `header and query ${name} disagree`)
  }
  const selector = header || query
  if (selector && !SLUG.test(selector)) return fail(400, ScopeErrorCode.selectorInvalid, `${name} is not a valid id`)
  if (token) {
    if (selector && selector !== token)
      return fail(403, ScopeErrorCode.conflict, `${name} conflicts with the token scope`)
    return { ok: true, value: token }
  }
  if (!selector) return { ok: true, value: '' }
  if (kind === 'admin' || kind === 'service') return { ok: true, value: selector }
  return fail(403, ScopeErrorCode.widening, `${name} widens the token scope`)
}

/**
 * The effective request scope (docs/api.md §4): token scope, or for unscoped admin/service
 * tokens the selectors narrowing it. Pure; the gateway maps a failure to its status and code.
 */
export function resolveScope(input: ScopeInput): ScopeResult {
  const t = resolveDim(
    'tenant_id',
    input.kind,
    input.tokenTenant ?? '',
    input.headerTenant ?? '',
    input.queryTenant ?? '',
  )
  if (!t.ok) return t
  const w = resolveDim(
    'workspace_id',
    input.kind,
    input.tokenWorkspace ?? '',
    input.headerWorkspace ?? '',
    input.queryWorkspace ?? '',
  )
  if (!w.ok) return w
  // Workspace slugs are only unique inside a tenant, so a workspace alone names nothing.
  if (w.value && !t.value) {
    return fail(400, ScopeErrorCode.workspaceWithoutTenant, 'workspace_id needs a tenant_id')
  }
  // An empty scope means "every tenant": only admin and service principals may hold it. Identity never issues
  // an unscoped agent token, so one can only be forged or stale; refuse it rather than let it see everything.
  if (input.kind === 'agent' && (!t.value || !w.value)) {
    return fail(403, ScopeErrorCode.required, 'an agent token must carry a tenant and workspace scope')
  }
  return { ok: true, tenant_id: t.value, workspace_id: w.value }
}
