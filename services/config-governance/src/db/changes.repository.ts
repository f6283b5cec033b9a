import { fromJson, type Tx, toBool, toJson } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { ConfigChangesTable, ConfigGovernanceDatabase } from './database.ts'
import type { ScopeKey } from './scoped-configs.repository.ts'

type Db = Kysely<ConfigGovernanceDatabase>

export interface StoredChange {
  id: string
  tenant_id: string
  workspace_id: string
  operation: 'update' | 'rollback'
  actor_user_id: string
  change_ref: string
  reason: string
  approval_ref: string | null
  source_change_id: string | null
  rolled_back_by: string | null
  /** documents as stored, secrets sealed */
  before: Record<string, unknown>
  after: Record<string, unknown>
  version: number
  created_at: string
}

/** The governance state kept on the row (what history filters and counts read). */
export interface ChangeState {
  risk_level: string
  approval_status: string
  verification_status: string
  governance_status: string
  needs_action: boolean
  verification_count: number
}

const toChange = (r: Selectable<ConfigChangesTable>): StoredChange => ({
  id: r.id,
  tenant_id: r.tenant_id,
  workspace_id: r.workspace_id,
  operation: r.operation as StoredChange['operation'],
  actor_user_id: r.actor_user_id,
  change_ref: r.change_ref,
  reason: r.reason,
  approval_ref: r.approval_ref,
  source_change_id: r.source_change_id,
  rolled_back_by: r.rolled_back_by,
  before: fromJson(r.before_doc, {}),
  after: fromJson(r.after_doc, {}),
  version: r.version,
  created_at: r.created_at,
})

export async function insertChange(db: Db, change: StoredChange, state: ChangeState) {
  const { before, after, ...row } = change
  await db
    .insertInto('config_changes')
    .values({ ...row, before_doc: toJson(before), after_doc: toJson(after), ...state })
    .execute()
}

export async function updateChangeState(db: Db, id: string, state: ChangeState & { rolled_back_by?: string }) {
  await db.updateTable('config_changes').set(state).where('id', '=', id).execute()
}

const changeById = (db: Db, key: ScopeKey, id: string) =>
  db
    .selectFrom('config_changes')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)

/** One history entry of the scope; another scope's entry is not found, like a missing one. */
export async function findChange(db: Db, key: ScopeKey, id: string): Promise<StoredChange | undefined> {
  const row = await changeById(db, key, id).executeTakeFirst()
  return row ? toChange(row) : undefined
}

/**
 * `findChange`, held until `tx` ends: two verifications (or a verification and a rollback) of one entry apply one
 * after the other, each computing the entry's state from what the other wrote.
 */
export async function findChangeForUpdate(
  tx: Tx<ConfigGovernanceDatabase>,
  key: ScopeKey,
  id: string,
): Promise<StoredChange | undefined> {
  const row = await tx.forUpdate(changeById(tx.db, key, id)).executeTakeFirst()
  return row ? toChange(row) : undefined
}

export interface HistoryFilters {
  operation?: string | undefined
  governance_status?: string | undefined
  risk_level?: string | undefined
  approval_status?: string | undefined
  verification_status?: string | undefined
  needs_action?: boolean | undefined
}

function filtered(db: Db, key: ScopeKey, f: HistoryFilters) {
  let q = db
    .selectFrom('config_changes')
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)
  if (f.operation) q = q.where('operation', '=', f.operation)
  if (f.governance_status) q = q.where('governance_status', '=', f.governance_status)
  if (f.risk_level) q = q.where('risk_level', '=', f.risk_level)
  if (f.approval_status) q = q.where('approval_status', '=', f.approval_status)
  if (f.verification_status) q = q.where('verification_status', '=', f.verification_status)
  if (f.needs_action !== undefined) q = q.where('needs_action', '=', f.needs_action)
  return q
}

/** A page of the scope's history, newest first, with the filtered total. */
export async function listChanges(db: Db, key: ScopeKey, f: HistoryFilters, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    filtered(db, key, f)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    filtered(db, key, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { changes: rows.map(toChange), total: Number(total.n) }
}

/** Counts of the scope's whole history (unfiltered) by each governance dimension: `governance_summary`. */
export async function summarizeChanges(db: Db, key: ScopeKey) {
  const rows = await filtered(db, key, {})
    .select(['governance_status', 'risk_level', 'approval_status', 'verification_status', 'needs_action'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .groupBy(['governance_status', 'risk_level', 'approval_status', 'verification_status', 'needs_action'])
    .execute()
  const summary = {
    total_items: 0,
    needs_action_count: 0,
    workflow_complete_count: 0,
    status_counts: {} as Record<string, number>,
    risk_level_counts: {} as Record<string, number>,
    approval_status_counts: {} as Record<string, number>,
    verification_status_counts: {} as Record<string, number>,
  }
  const add = (m: Record<string, number>, k: string, n: number) => {
    m[k] = (m[k] ?? 0) + n
  }
  for (const r of rows) {
    const n = Number(r.n)
    summary.total_items += n
    if (toBool(r.needs_action)) summary.needs_action_count += n
    if (['approved', 'verified', 'not_required'].includes(r.governance_status)) summary.workflow_complete_count += n
    add(summary.status_counts, r.governance_status, n)
    add(summary.risk_level_counts, r.risk_level, n)
    add(summary.approval_status_counts, r.approval_status, n)
    add(summary.verification_status_counts, r.verification_status, n)
  }
  return summary
}
