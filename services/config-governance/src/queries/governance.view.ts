import type { Kysely } from 'kysely'
import { kindOf } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import type { StoredChange } from '../db/changes.repository.ts'
import type { ConfigGovernanceDatabase } from '../db/database.ts'
import { findApprovals, findVerifications, type StoredVerification } from '../db/reviews.repository.ts'
import type { ChangeRecord, ConfigDocument } from '../domain/change-risk.ts'
import { type GovernanceView, governanceOf } from '../domain/governance.ts'
import { fingerprintDocument } from '../domain/stored-document.ts'

type Db = Kysely<ConfigGovernanceDatabase>

/** A stored change as the rules see it: secrets as fingerprints, so a changed key is a changed path. */
export function changeRecordOf(svc: ConfigGovernanceService, change: StoredChange): ChangeRecord {
  return {
    id: change.id,
    operation: change.operation,
    actor_user_id: change.actor_user_id,
    change_ref: change.change_ref,
    reason: change.reason,
    approval_ref: change.approval_ref,
    before: fingerprintDocument(svc.box, change.before) as ConfigDocument,
    after: fingerprintDocument(svc.box, change.after) as ConfigDocument,
    created_at: change.created_at,
    rolled_back_by: change.rolled_back_by,
  }
}

/** The approvals that may back a change: those recorded in its scope for its approval_ref + change_ref. */
export function approvalsFor(db: Db, change: StoredChange) {
  if (!change.approval_ref) return Promise.resolve([])
  return findApprovals(db, change, change.approval_ref, change.change_ref)
}

/** The row's filterable state, from a governance view. */
export const stateOf = (g: GovernanceView) => ({
  risk_level: g.change_risk.risk_level,
  approval_status: String(g.approval_policy.approval_status),
  verification_status: g.verification_status,
  governance_status: g.governance_status,
  needs_action: g.needs_action,
  verification_count: g.verification_count,
})

/** Where the entry's follow-ups live (paths under the gateway's /api prefix). */
function links(change: StoredChange, g: GovernanceView) {
  const base = `/api/security/config/${kindOf(change)}`
  return {
    preview: { path: `${base}/history/${change.id}`, method: 'GET' },
    rollback: {
      path: `${base}/rollback/${change.id}`,
      method: 'POST',
      available: true,
      requires: ['confirm=true', 'change_ref', 'reason', 'approval_ref'],
      risk_level: 'high',
    },
    verify: {
      path: `${base}/verify/${change.id}`,
      method: 'POST',
      required: g.verification_required,
      template_check_ids: g.verification_template.checks?.map((c) => c.id) ?? [],
    },
  }
}

/** The governance blocks of one entry, given its approvals and verifications (already loaded). */
export function governanceBlocks(
  svc: ConfigGovernanceService,
  change: StoredChange,
  approvals: Parameters<typeof governanceOf>[1],
  verifications: StoredVerification[],
) {
  const g = governanceOf(changeRecordOf(svc, change), approvals, verifications)
  return { ...g, ...links(change, g) }
}

/** The entries' verifications, grouped by entry: one query for a page of history. */
export async function verificationsByChange(db: Db, ids: readonly string[]) {
  const byChange = new Map<string, StoredVerification[]>()
  for (const v of await findVerifications(db, ids)) {
    const list = byChange.get(v.change_id) ?? []
    list.push(v)
    byChange.set(v.change_id, list)
  }
  return byChange
}
