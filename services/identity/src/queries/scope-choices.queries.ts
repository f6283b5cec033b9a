import type { Binding } from '../db/bindings.repository.ts'
import { scopeRecords } from '../db/tenants.repository.ts'
import type { Db } from '../db/users.repository.ts'

export interface ScopeChoice {
  tenant_id: string
  workspace_id: string
  tenant_name: string
  workspace_name: string
  /** `agent` when the user works there (staff), `customer` when it is a customer there */
  kind: 'agent' | 'customer'
}

/**
 * The scopes a login may name, one per tenant/workspace (the agent record preferred), with the registry's names:
 * what a client's chooser shows after `IDENTITY_SCOPE_REQUIRED`. Only ever computed after the password matched.
 */
export async function scopeChoices(db: Db, bindings: readonly Binding[]): Promise<ScopeChoice[]> {
  const byScope = new Map<string, Binding>()
  for (const b of bindings) {
    const key = `${b.tenant_id}\n${b.workspace_id}`
    const seen = byScope.get(key)
    if (!seen || (seen.kind !== 'agent' && b.kind === 'agent')) byScope.set(key, b)
  }
  return Promise.all(
    [...byScope.values()].map(async (b) => {
      const { tenant, workspace } = await scopeRecords(db, b)
      return {
        tenant_id: b.tenant_id,
        workspace_id: b.workspace_id,
        tenant_name: tenant?.name ?? b.tenant_id,
        workspace_name: workspace?.name ?? b.workspace_id,
        kind: b.kind,
      }
    }),
  )
}
