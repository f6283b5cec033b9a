import { type Caller, newId, nowIso } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import { findChangeForUpdate, updateChangeState } from '../db/changes.repository.ts'
import {
  findApprovals,
  insertApproval,
  insertVerification,
  type StoredApproval,
  type StoredVerification,
} from '../db/reviews.repository.ts'
import type { ScopeKey } from '../db/scoped-configs.repository.ts'
import { normaliseChecks, verificationRefusal } from '../domain/governance.ts'
import { ConfigErrors } from '../errors.ts'
import {
  approvalsFor,
  changeRecordOf,
  governanceBlocks,
  stateOf,
  verificationsByChange,
} from '../queries/governance.view.ts'
import { type ChangeControl, scopeFields } from './scope.ts'

/** A caller that can be a reviewer: a user, not the system or an anonymous principal. */
const isUser = (caller: Caller) => Boolean(caller.actor.user_id) && caller.actor.user_id !== 'system'

/**
 * POST approve: the second person's yes to approval_ref + change_ref, before the change runs (dual control: the
 * change is then refused if its executor is this same user). Kept here and in the audit log.
 */
export function approveChange(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  cc: ChangeControl,
  body: { notes: string; evidence?: string[] | undefined },
) {
  if (!body.notes.trim()) throw new ConfigErrors.ApprovalNotesRequired()
  if (!cc.approval_ref) throw new ConfigErrors.ApprovalRefRequired()
  if (!isUser(caller)) throw new ConfigErrors.ReviewerRequired(caller.actor.user_id || 'an anonymous caller')
  const approval_ref = cc.approval_ref
  return svc.transaction(caller, async (tx) => {
    const earlier = await findApprovals(tx.db, key, approval_ref, cc.change_ref)
    const approval: StoredApproval = {
      id: newId(),
      approval_ref,
      change_ref: cc.change_ref,
      reason: cc.reason,
      actor_user_id: caller.actor.user_id,
      notes: body.notes,
      evidence: body.evidence ?? [],
      used_by: null,
      created_at: nowIso(),
    }
    await insertApproval(tx.db, key, approval)
    const shown = { audit_id: approval.id, ...approval, change_control: cc }
    return {
      before: earlier.at(-1) ?? null,
      after: shown,
      response: {
        ...scopeFields(key),
        approval: shown,
        change_control: cc,
        approval_policy: {
          approval_status: 'approved',
          required: true,
          same_actor_allowed: false,
          approver_user_id: caller.actor.user_id,
          approval_count: earlier.length + 1,
        },
      },
    }
  })
}

/**
 * POST verify/:audit_id: a reviewer other than the change's executor records whether the change does what it should,
 * check by check against the entry's verification template. The entry's governance state follows.
 */
export function verifyChange(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  cc: ChangeControl,
  changeId: string,
  body: {
    status: string
    notes?: string | undefined
    evidence?: string[] | undefined
    checks?: StoredVerification['checks'] | undefined
  },
) {
  return svc.transaction(caller, async (tx) => {
    const change = await findChangeForUpdate(tx, key, changeId)
    if (!change) throw new ConfigErrors.HistoryNotFound(changeId)
    const reviewer = isUser(caller) ? caller.actor.user_id : ''
    const refusal = verificationRefusal(changeRecordOf(svc, change), body, reviewer)
    if (refusal) throw ConfigErrors.Refused(refusal.status, refusal.code, refusal.message)

    const approvals = await approvalsFor(tx.db, change)
    const earlier = (await verificationsByChange(tx.db, [change.id])).get(change.id) ?? []
    const sourceBefore = governanceBlocks(svc, change, approvals, earlier)
    const verification: StoredVerification = {
      id: newId(),
      change_id: change.id,
      status: body.status as StoredVerification['status'],
      actor_user_id: reviewer,
      notes: body.notes ?? '',
      evidence: body.evidence ?? [],
      checks: normaliseChecks(body.checks ?? []),
      change_ref: cc.change_ref,
      reason: cc.reason,
      created_at: nowIso(),
    }
    await insertVerification(tx.db, key, verification)
    const after = governanceBlocks(svc, change, approvals, [...earlier, verification])
    await updateChangeState(tx.db, change.id, stateOf(after))
    const shown = { audit_id: verification.id, source_audit_id: change.id, ...verification, change_control: cc }
    return {
      before: earlier.at(-1) ?? { source_audit_id: change.id, status: 'pending' },
      after: shown,
      response: {
        source_audit_id: change.id,
        source_action: change.operation,
        verification_status: after.verification_status,
        verification: shown,
        source_change_control: after.change_control,
        source_change_risk: after.change_risk,
        source_approval_policy: after.approval_policy,
        source_governance_status: after.governance_status,
        source_governance_policy: after.governance_policy,
        /** where the entry stood before this verification */
        previous_governance_status: sourceBefore.governance_status,
        governance_status: after.governance_status,
        governance_policy: after.governance_policy,
        verification_template: after.verification_template,
        verification_required: after.verification_required,
        verification_policy: after.verification_policy,
      },
    }
  })
}
