import {
  ERASURE_DLQ_PART,
  ERASURE_REPORTERS,
  type ErasureReported,
  IdentityErasureEvents,
} from '@switchboard/contracts'
import { type Caller, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { type CustomerRow, findCustomerInScope } from '../db/customers.repository.ts'
import {
  anonymiseUser,
  completeErasure,
  type ErasureRow,
  findErasureOfCustomer,
  insertErasure,
  insertErasureReport,
  listErasureReports,
  lockErasure,
  otherCustomerRecords,
  removeCustomerRecord,
} from '../db/erasures.repository.ts'
import type { Db } from '../db/users.repository.ts'
import { findUserById } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import type { IdentityTx } from './identity-tx.ts'
import { revokeUserTokens, setUserStatus } from './revocation.ts'

export const IDENTITY_REPORTER = 'identity'

/**
 * The parts an erasure waits for: identity itself, every unit of ERASURE_REPORTERS, then identity's removal of the
 * dead letters about the person (consumers/erasure-dlq.consumer.ts).
 */
export const EXPECTED_REPORTERS = [IDENTITY_REPORTER, ...ERASURE_REPORTERS.map((r) => r.service), ERASURE_DLQ_PART]

/** The erasure and whether this request started it (a repeated request answers with the first). */
export interface ErasureStarted {
  erasure: ErasureRow
  created: boolean
}

/**
 * Erases a customer of the caller's scope (the right to erasure): records the request, removes the customer record
 * and its notes, empties and deactivates the account (tokens revoked) unless another customer record still uses it,
 * and emits `identity.customer.erasure_requested` in the same transaction, so every unit carries it out from its
 * own consumer even when identity dies right after the commit. Idempotent: a customer already erased answers with
 * its erasure; another tenant's customer is 404 like a missing one.
 */
export function eraseCustomer(svc: IdentityService, caller: Caller, customerId: string): Promise<ErasureStarted> {
  return svc.transaction(caller, async (tx) => {
    const earlier = await findErasureOfCustomer(tx.db, customerId, tx.caller.scope)
    if (earlier) return { erasure: earlier, created: false }
    const customer = await findCustomerInScope(tx.db, customerId, tx.caller.scope)
    if (!customer) throw new IdentityErrors.CustomerNotFound()
    return { erasure: await eraseCustomerIn(tx, customer), created: true }
  })
}

/** The erasure of one customer inside the caller's transaction (the customer's and the tenant's command share it). */
export async function eraseCustomerIn(tx: IdentityTx, customer: CustomerRow): Promise<ErasureRow> {
  const user = await findUserById(tx.db, customer.user_id)
  const now = new Date().toISOString()
  const erasure: ErasureRow = {
    id: newId(),
    tenant_id: customer.tenant_id,
    workspace_id: customer.workspace_id,
    customer_id: customer.id,
    user_id: customer.user_id,
    requested_by: tx.caller.actor.user_id,
    status: 'in_progress',
    requested_at: now,
    completed_at: null,
  }
  await insertErasure(tx.db, erasure)
  const identifiers = [customer.name, customer.email, customer.phone, user?.name, user?.email, user?.username]
  const { notes } = await removeCustomerRecord(tx.db, customer.id)
  const counts: Record<string, number> = { customers_removed: 1, notes_deleted: notes, accounts_emptied: 0 }
  if ((await otherCustomerRecords(tx.db, customer.user_id)).length === 0 && user) {
    const { sessions } = await anonymiseUser(tx.db, user.id, now)
    await revokeUserTokens(tx, user.id, 'customers.erasure')
    await setUserStatus(tx, user.id, 'inactive', 'customers.erasure')
    counts.accounts_emptied = 1
    counts.auth_sessions_revoked = sessions
  }
  const scope = { tenant_id: customer.tenant_id, workspace_id: customer.workspace_id }
  await tx.emit(
    IdentityErasureEvents.requested,
    {
      erasure_id: erasure.id,
      customer_id: customer.id,
      user_id: customer.user_id,
      identifiers: [...new Set(identifiers.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))],
    },
    scope,
  )
  await recordReport(tx, erasure.id, IDENTITY_REPORTER, counts, now)
  return erasure
}

/** One unit's report, kept once; the erasure is completed when the last expected unit has reported. */
async function recordReport(
  tx: IdentityTx,
  erasureId: string,
  service: string,
  counts: Record<string, number>,
  at: string,
): Promise<void> {
  await insertErasureReport(tx.db, { erasure_id: erasureId, service, counts: JSON.stringify(counts), reported_at: at })
  const reported = new Set((await listErasureReports(tx.db, erasureId)).map((r) => r.service))
  if (EXPECTED_REPORTERS.every((s) => reported.has(s))) await completeErasure(tx.db, erasureId, at)
}

/** A unit's `*.erasure.reported` (consumers/erasure-reports.consumer.ts); a report of an unknown erasure is skipped. */
export async function applyErasureReport(tx: IdentityTx, report: ErasureReported): Promise<boolean> {
  if (!(await lockErasure(tx.db, report.erasure_id))) return false
  await recordReport(tx, report.erasure_id, report.service, report.counts, report.completed_at)
  return true
}

/** The erasure's report as the API shows it: each unit's counts, and the units still to report. */
export async function erasureReport(db: Db, erasure: ErasureRow) {
  const reports = await listErasureReports(db, erasure.id)
  const reported = new Set(reports.map((r) => r.service))
  return {
    erasure_id: erasure.id,
    customer_id: erasure.customer_id,
    status: erasure.status === 'completed' ? ('completed' as const) : ('in_progress' as const),
    requested_by: erasure.requested_by,
    requested_at: new Date(erasure.requested_at).toISOString(),
    completed_at: erasure.completed_at ? new Date(erasure.completed_at).toISOString() : null,
    services: reports.map((r) => ({
      service: r.service,
      counts: JSON.parse(r.counts) as Record<string, number>,
      reported_at: new Date(r.reported_at).toISOString(),
    })),
    pending: EXPECTED_REPORTERS.filter((s) => !reported.has(s)),
  }
}
