import { fromJson, type Tx, toJson } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { ConfigGovernanceDatabase, ConfigPendingChangesTable } from './database.ts'
import type { ScopeKey } from './scoped-configs.repository.ts'

type Db = Kysely<ConfigGovernanceDatabase>

export const PENDING_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const
export type PendingStatus = (typeof PENDING_STATUSES)[number]

/** A proposed high-risk change of one scope (README "Pending changes"): documents as stored, secrets sealed. */
export interface StoredPending {
  id: string
  tenant_id: string
  workspace_id: string
  status: PendingStatus
  proposer_user_id: string
  change_ref: string
  reason: string
  approval_ref: string
  base_version: number
  before: Record<string, unknown>
  after: Record<string, unknown>
  risk_level: string
  decided_by: string | null
  decided_at: string | null
  decision_notes: string | null
  applied_change_id: string | null
  created_at: string
}

const toPending = (r: Selectable<ConfigPendingChangesTable>): StoredPending => ({
  id: r.id,
  tenant_id: r.tenant_id,
  workspace_id: r.workspace_id,
  status: r.status as PendingStatus,
  proposer_user_id: r.proposer_user_id,
  change_ref: r.change_ref,
  reason: r.reason,
  approval_ref: r.approval_ref,
  base_version: r.base_version,
  before: fromJson(r.before_doc, {}),
  after: fromJson(r.after_doc, {}),
  risk_level: r.risk_level,
  decided_by: r.decided_by,
  decided_at: r.decided_at,
  decision_notes: r.decision_notes,
  applied_change_id: r.applied_change_id,
  created_at: r.created_at,
})

export async function insertPending(db: Db, p: StoredPending) {
  const { before, after, ...row } = p
  await db
    .insertInto('config_pending_changes')
    .values({ ...row, before_doc: toJson(before), after_doc: toJson(after) })
    .execute()
}

const pendingById = (db: Db, key: ScopeKey, id: string) =>
  db
    .selectFrom('config_pending_changes')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)

/** One pending change of the scope; another scope's is not found, like a missing one. */
export async function findPending(db: Db, key: ScopeKey, id: string): Promise<StoredPending | undefined> {
  const row = await pendingById(db, key, id).executeTakeFirst()
  return row ? toPending(row) : undefined
}

/**
 * `findPending`, its row held until `tx` ends: two administrators deciding the same change at once, the second sees
 * the first's decision.
 */
export async function findPendingForUpdate(
  tx: Tx<ConfigGovernanceDatabase>,
  key: ScopeKey,
  id: string,
): Promise<StoredPending | undefined> {
  const row = await tx.forUpdate(pendingById(tx.db, key, id)).executeTakeFirst()
  return row ? toPending(row) : undefined
}

/** The scope's pending changes in one status (all statuses without one), newest first, with the total. */
export async function listPending(
  db: Db,
  key: ScopeKey,
  status: PendingStatus | undefined,
  page: number,
  pageSize: number,
) {
  let q = db
    .selectFrom('config_pending_changes')
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)
  if (status) q = q.where('status', '=', status)
  const [rows, total] = await Promise.all([
    q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { items: rows.map(toPending), total: Number(total.n) }
}

/** Records the decision on a still-pending change; false when someone decided it first. */
export async function decidePending(
  db: Db,
  id: string,
  d: {
    status: PendingStatus
    decided_by: string
    decided_at: string
    decision_notes: string
    applied_change_id?: string
  },
): Promise<boolean> {
  const res = await db
    .updateTable('config_pending_changes')
    .set({ ...d, applied_change_id: d.applied_change_id ?? null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}
