/** A user's link to one tenant/workspace: an agent or a customer record (docs/api.md §4). */
export interface Binding {
  kind: 'agent' | 'customer'
  id: string
  tenant_id: string
  workspace_id: string
}

export type Selected = { tenant_id: string; workspace_id: string }

export type SelectorResult = { ok: true; value: Selected } | { ok: false; message: string }

/** Body and header selectors (X-Tenant-ID / X-Workspace-ID) must agree; either may be absent. */
export function readSelectors(
  body: { tenant_id?: string | undefined; workspace_id?: string | undefined },
  headers: Record<string, string | string[] | undefined>,
): SelectorResult {
  const header = (name: string) => {
    const v = headers[name]
    return (Array.isArray(v) ? v[0] : v)?.trim() ?? ''
  }
  const pick = (field: 'tenant_id' | 'workspace_id', name: string): string | { conflict: string } => {
    const b = body[field] ?? ''
    const h = header(name)
    if (b && h && b !== h) return { conflict: `body.${field} and ${name} disagree` }
    return b || h
  }
  const tenant = pick('tenant_id', 'x-tenant-id')
  if (typeof tenant !== 'string') return { ok: false, message: tenant.conflict }
  const workspace = pick('workspace_id', 'x-workspace-id')
  if (typeof workspace !== 'string') return { ok: false, message: workspace.conflict }
  if (workspace && !tenant) return { ok: false, message: 'body.tenant_id: workspace_id needs a tenant_id' }
  return { ok: true, value: { tenant_id: tenant, workspace_id: workspace } }
}

export type BindingChoice =
  | { ok: true; binding: Binding | undefined; scope: Selected }
  | { ok: false; reason: 'several' | 'not_bound' }

/**
 * The scope a login token carries (docs/api.md §4): the named binding, else the only one. A platform admin
 * (`adminTenant` '') may name any scope (admins may work anywhere) and without a name or binding gets an unscoped
 * token; a tenant administrator may name any workspace of its own tenant only, and without a name gets its one
 * binding there, else its tenant as a whole: never an unscoped token.
 */
export function chooseBinding(
  all: readonly Binding[],
  selected: Selected,
  role: string,
  adminTenant = '',
): BindingChoice {
  const isAdmin = role === 'admin'
  const tenantAdmin = isAdmin && adminTenant !== ''
  // A tenant administrator's records elsewhere (made by a platform operator) never carry its admin role there.
  const bindings = tenantAdmin ? all.filter((b) => b.tenant_id === adminTenant) : all
  const mayName = (s: Selected) => isAdmin && (!tenantAdmin || s.tenant_id === adminTenant)
  if (selected.tenant_id) {
    const matches = bindings.filter(
      (b) => b.tenant_id === selected.tenant_id && (!selected.workspace_id || b.workspace_id === selected.workspace_id),
    )
    // Prefer the agent record when a user is both agent and customer in the same scope.
    const binding = matches.find((b) => b.kind === 'agent') ?? matches[0]
    const sameScope = matches.every(
      (m) => m.tenant_id === matches[0]?.tenant_id && m.workspace_id === matches[0]?.workspace_id,
    )
    if (binding && sameScope) return { ok: true, binding, scope: pick(binding) }
    if (matches.length > 1) return { ok: false, reason: 'several' }
    if (mayName(selected)) return { ok: true, binding: undefined, scope: selected }
    return { ok: false, reason: 'not_bound' }
  }
  const whole = tenantAdmin ? { tenant_id: adminTenant, workspace_id: '' } : { tenant_id: '', workspace_id: '' }
  if (bindings.length === 0) return { ok: true, binding: undefined, scope: whole }
  const scopes = new Set(bindings.map((b) => `${b.tenant_id}\n${b.workspace_id}`))
  if (scopes.size === 1) {
    const binding = bindings.find((b) => b.kind === 'agent') ?? bindings[0]
    return { ok: true, binding, scope: binding ? pick(binding) : whole }
  }
  if (isAdmin) return { ok: true, binding: undefined, scope: whole }
  return { ok: false, reason: 'several' }
}

const pick = (b: Binding): Selected => ({ tenant_id: b.tenant_id, workspace_id: b.workspace_id })
