import { fromJson, toJson } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConfigGovernanceDatabase } from './database.ts'
import type { ScopeKey } from './scoped-configs.repository.ts'

type Db = Kysely<ConfigGovernanceDatabase>

/** Approvals and verifications: the second person's part of a change (README "Governance"). */
export interface StoredApproval {
  id: string
  approval_ref: string
  change_ref: string
  reason: string
  actor_user_id: string
  notes: string
  evidence: string[]
  /** the change that executed on it; an approval backs one execution */
  used_by: string | null
  created_at: string
}

export interface StoredVerification {
  id: string
  change_id: string
  status: 'passed' | 'failed'
  actor_user_id: string
  notes: string
  evidence: string[]
  checks: Array<{ id: string; status: 'passed' | 'failed' | 'skipped'; notes?: string }>
  change_ref: string
  reason: string
  created_at: string
}

export async function insertApproval(db: Db, key: ScopeKey, a: StoredApproval) {
  await db
    .insertInto('config_approvals')
    .values({ ...key, ...a, evidence: toJson(a.evidence) })
    .execute()
}

/** The approvals recorded in the scope for approval_ref + change_ref, oldest first. */
export async function findApprovals(db: Db, key: ScopeKey, approval_ref: string, change_ref: string) {
  const rows = await db
    .selectFrom('config_approvals')
    .selectAll()
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)
    .where('approval_ref', '=', approval_ref)
    .where('change_ref', '=', change_ref)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map(
    (r): StoredApproval => ({
      id: r.id,
      approval_ref: r.approval_ref,
      change_ref: r.change_ref,
      reason: r.reason,
      actor_user_id: r.actor_user_id,
      notes: r.notes,
      evidence: fromJson(r.evidence, []),
      used_by: r.used_by,
      created_at: r.created_at,
    }),
  )
}

/** Marks the approval as spent by `changeId`, unless another change spent it first (false then). */
export async function useApproval(db: Db, approvalId: string, changeId: string): Promise<boolean> {
  const res = await db
    .updateTable('config_approvals')
    .set({ used_by: changeId })
    .where('id', '=', approvalId)
    .where('used_by', 'is', null)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

export async function insertVerification(db: Db, key: ScopeKey, v: StoredVerification) {
  await db
    .insertInto('config_verifications')
    .values({ ...key, ...v, evidence: toJson(v.evidence), checks: toJson(v.checks) })
    .execute()
}

/** The verifications of the given history entries, oldest first. */
export async function findVerifications(db: Db, changeIds: readonly string[]): Promise<StoredVerification[]> {
  if (changeIds.length === 0) return []
  const rows = await db
    .selectFrom('config_verifications')
    .selectAll()
    .where('change_id', 'in', changeIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    change_id: r.change_id,
    status: r.status as StoredVerification['status'],
    actor_user_id: r.actor_user_id,
    notes: r.notes,
    evidence: fromJson(r.evidence, []),
    checks: fromJson(r.checks, []),
    change_ref: r.change_ref,
    reason: r.reason,
    created_at: r.created_at,
  }))
}
