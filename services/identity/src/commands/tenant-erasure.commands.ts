import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { customersOfTenant, type ErasureRow } from '../db/erasures.repository.ts'
import { type TenantRow, updateTenant } from '../db/tenants.repository.ts'
import { eraseCustomerIn } from './erasure.commands.ts'
import { announceTenant } from './scope-registry.ts'
import { tenantInView } from './tenants.commands.ts'

export interface TenantErasure {
  tenant: TenantRow
  /** the erasures this request started (none when repeated: its customers are gone already) */
  started: ErasureRow[]
}

/**
 * A tenant deleting itself, as far as its people go: every customer of every workspace erased (each its own erasure,
 * event and report, exactly as one customer's), and the tenant disabled in the same transaction, so its tokens are
 * refused and nobody is added meanwhile. The caller's own tenant only (another answers 404 like a missing one), or a
 * platform operator. Idempotent: a repeated request erases nobody new. What it does not remove (staff accounts,
 * tickets and conversations without a customer, knowledge docs, configuration) is listed in the README.
 */
export function eraseTenant(svc: IdentityService, caller: Caller, tenantId: string): Promise<TenantErasure> {
  return svc.transaction(caller, async (tx) => {
    let tenant = await tenantInView(tx, tenantId)
    const started: ErasureRow[] = []
    for (const customer of await customersOfTenant(tx.db, tenantId)) started.push(await eraseCustomerIn(tx, customer))
    if (tenant.status !== 'disabled') {
      tenant = (await updateTenant(tx.db, tenantId, { status: 'disabled' }, new Date().toISOString())) as TenantRow
      await announceTenant(tx, tenant, true)
    }
    return { tenant, started }
  })
}
