import {
  ERASURE_DLQ_PART,
  IdentityTenantErasureEvents,
  TENANT_ERASURE_REPORTERS,
  type TenantErasureReported,
} from '@switchboard/contracts'
import { type Caller, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import {
  completeTenantErasure,
  dropPasswordTokens,
  emptyRegistry,
  erasedCustomerUsers,
  findTenantErasure,
  heldElsewhere,
  insertTenantErasure,
  insertTenantErasureReport,
  listTenantErasureReports,
  lockTenantErasure,
  removeTenantBindings,
  staffOfTenant,
  type TenantErasureRow,
  workspacesOfTenant,
} from '../db/erasure-tenant.repository.ts'
import { anonymiseUser, customersOfTenant, type ErasureRow } from '../db/erasures.repository.ts'
import { findTenant, type TenantRow, updateTenant } from '../db/tenants.repository.ts'
import { type Db, findUsersByIds } from '../db/users.repository.ts'
import { eraseCustomerIn, IDENTITY_REPORTER } from './erasure.commands.ts'
import type { IdentityTx } from './identity-tx.ts'
import { revokeUserTokens, setUserStatus } from './revocation.ts'
import { announceTenant, announceWorkspace } from './scope-registry.ts'
import { tenantInView } from './tenants.commands.ts'

/** identity's second part: the tenant's keys in the shared Redis (consumers/erasure-tenant.consumer.ts). */
export const CACHE_REPORTER = 'cache'

/**
 * The parts a tenant's erasure waits for: identity's two, every unit of TENANT_ERASURE_REPORTERS, then identity's
 * removal of the tenant's dead letters (consumers/erasure-dlq.consumer.ts).
 */
export const EXPECTED_TENANT_REPORTERS = [
  IDENTITY_REPORTER,
  CACHE_REPORTER,
  ...TENANT_ERASURE_REPORTERS.map((r) => r.service),
  ERASURE_DLQ_PART,
]

export interface TenantErasure {
  tenant: TenantRow
  /** the customers' erasures this request started (none when repeated: its customers are gone already) */
  started: ErasureRow[]
  /** the tenant's own erasure (the first one when repeated) */
  erasure: TenantErasureRow
}

/**
 * A tenant deleting itself: every customer of every workspace erased (each its own erasure, event and report, exactly
 * as one customer's); its staff's bindings removed, their sessions revoked and — unless they hold something in
 * another tenant — their accounts emptied and deactivated; the registry keeps the tenant's and workspaces' ids and
 * statuses (disabled) without names or settings; then `identity.tenant.erasure_requested`, in the same transaction,
 * from which every unit removes what it holds of the tenant and reports. The caller's own tenant only (another
 * answers 404 like a missing one), or a platform operator. Idempotent: a repeated request answers with the first.
 */
export function eraseTenant(svc: IdentityService, caller: Caller, tenantId: string): Promise<TenantErasure> {
  return svc.transaction(caller, async (tx) => {
    const tenant = await tenantInView(tx, tenantId)
    const started: ErasureRow[] = []
    for (const customer of await customersOfTenant(tx.db, tenantId)) started.push(await eraseCustomerIn(tx, customer))
    const earlier = await findTenantErasure(tx.db, tenantId)
    if (earlier) return { tenant, started, erasure: earlier }
    return eraseTenantIn(tx, tenant, started)
  })
}

async function eraseTenantIn(tx: IdentityTx, tenant: TenantRow, started: ErasureRow[]): Promise<TenantErasure> {
  const now = new Date().toISOString()
  const erasure: TenantErasureRow = {
    id: newId(),
    tenant_id: tenant.id,
    requested_by: tx.caller.actor.user_id,
    status: 'in_progress',
    requested_at: now,
    completed_at: null,
  }
  await insertTenantErasure(tx.db, erasure)
  const staff = await findUsersByIds(tx.db, await staffOfTenant(tx.db, tenant.id))
  const workspaces = await workspacesOfTenant(tx.db, tenant.id)
  const identifiers = [tenant.name, ...workspaces.map((w) => w.name), ...staff.flatMap((u) => [u.name, u.email])]
  identifiers.push(...staff.map((u) => u.username), ...staff.map((u) => u.phone))
  const counts: Record<string, number> = {
    customers_erased: started.length,
    ...(await removeTenantBindings(tx.db, tenant.id, now)),
  }
  counts.staff_accounts_emptied = 0
  for (const user of staff) {
    if (await heldElsewhere(tx.db, user.id, tenant.id)) continue
    await anonymiseUser(tx.db, user.id, now)
    await dropPasswordTokens(tx.db, user.id)
    await revokeUserTokens(tx, user.id, 'tenants.erasure')
    await setUserStatus(tx, user.id, 'inactive', 'tenants.erasure')
    counts.staff_accounts_emptied++
  }
  counts.workspaces_emptied = (await emptyRegistry(tx.db, tenant.id, now)).workspaces
  const disabled = tenant.status !== 'disabled'
  const after = disabled ? await updateTenant(tx.db, tenant.id, { status: 'disabled' }, now) : undefined
  const emptied = (after ?? (await findTenant(tx.db, tenant.id))) as TenantRow
  await announceTenant(tx, emptied, disabled)
  for (const w of await workspacesOfTenant(tx.db, tenant.id)) await announceWorkspace(tx, w, false)
  const customers = await erasedCustomerUsers(tx.db, tenant.id)
  await tx.emit(
    IdentityTenantErasureEvents.requested,
    {
      tenant_erasure_id: erasure.id,
      tenant_id: tenant.id,
      user_ids: [...new Set([...staff.map((u) => u.id), ...customers])],
      identifiers: [...new Set(identifiers.filter((v) => typeof v === 'string' && v.trim().length >= 3))],
    },
    { tenant_id: tenant.id, workspace_id: '' },
  )
  await recordTenantReport(tx, erasure.id, IDENTITY_REPORTER, counts, now)
  return { tenant: emptied, started, erasure }
}

async function recordTenantReport(
  tx: IdentityTx,
  id: string,
  service: string,
  counts: Record<string, number>,
  at: string,
): Promise<void> {
  await insertTenantErasureReport(tx.db, {
    tenant_erasure_id: id,
    service,
    counts: JSON.stringify(counts),
    reported_at: at,
  })
  const reported = new Set((await listTenantErasureReports(tx.db, id)).map((r) => r.service))
  if (EXPECTED_TENANT_REPORTERS.every((s) => reported.has(s))) await completeTenantErasure(tx.db, id, at)
}

/** A unit's `*.tenant_erasure.reported` (consumers/erasure-tenant.consumer.ts); an unknown erasure's is skipped. */
export async function applyTenantErasureReport(tx: IdentityTx, report: TenantErasureReported): Promise<boolean> {
  if (!(await lockTenantErasure(tx.db, report.tenant_erasure_id))) return false
  await recordTenantReport(tx, report.tenant_erasure_id, report.service, report.counts, report.completed_at)
  return true
}

/** The tenant erasure's report as the API shows it: each unit's counts, and the units still to report. */
export async function tenantErasureReport(db: Db, erasure: TenantErasureRow) {
  const reports = await listTenantErasureReports(db, erasure.id)
  const reported = new Set(reports.map((r) => r.service))
  return {
    id: erasure.id,
    status: erasure.status === 'completed' ? ('completed' as const) : ('in_progress' as const),
    requested_at: new Date(erasure.requested_at).toISOString(),
    completed_at: erasure.completed_at ? new Date(erasure.completed_at).toISOString() : null,
    services: reports.map((r) => ({
      service: r.service,
      counts: JSON.parse(r.counts) as Record<string, number>,
      reported_at: new Date(r.reported_at).toISOString(),
    })),
    pending: EXPECTED_TENANT_REPORTERS.filter((s) => !reported.has(s)),
  }
}
