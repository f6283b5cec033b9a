import type { Caller } from '@switchboard/platform'
import { kindOf, scopeFields } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import type { StoredPending } from '../db/pending-changes.repository.ts'
import { analyseChange, type ConfigDocument } from '../domain/change-risk.ts'
import { diffDocuments } from '../domain/config-paths.ts'
import { fingerprintDocument } from '../domain/stored-document.ts'

/** Who may still decide a pending change: anyone but its proposer approves or rejects, only the proposer withdraws. */
export function pendingActions(p: StoredPending, userId: string) {
  const open = p.status === 'pending' && Boolean(userId) && userId !== 'system'
  const own = userId === p.proposer_user_id
  return { approve: open && !own, reject: open && !own, withdraw: open && own }
}

/** The risk, template and diff of a proposal, compared with secrets as fingerprints (a new key is a changed path). */
export function analysePending(svc: ConfigGovernanceService, before: object, after: object) {
  const b = fingerprintDocument(svc.box, before as Record<string, unknown>) as ConfigDocument
  const a = fingerprintDocument(svc.box, after as Record<string, unknown>) as ConfigDocument
  const { risk, template } = analyseChange(b, a, 'update')
  const { changes } = diffDocuments(b, a)
  return { change_risk: risk, verification_template: template, diff: { changed_paths: risk.changed_paths, changes } }
}

/** A pending change on the wire: never a secret (the diff shows `"[REDACTED]"`), with what the caller may do. */
export function pendingView(svc: ConfigGovernanceService, p: StoredPending, caller: Caller) {
  const base = `/api/security/config/${kindOf(p)}/pending/${p.id}`
  return {
    id: p.id,
    ...scopeFields(p),
    status: p.status,
    proposer_user_id: p.proposer_user_id,
    change_control: { change_ref: p.change_ref, reason: p.reason, approval_ref: p.approval_ref },
    ...analysePending(svc, p.before, p.after),
    base_version: p.base_version,
    decided_by: p.decided_by,
    decided_at: p.decided_at,
    decision_notes: p.decision_notes,
    applied_audit_id: p.applied_change_id,
    created_at: p.created_at,
    actions: pendingActions(p, caller.actor.user_id),
    links: { approve: `${base}/approve`, reject: `${base}/reject`, withdraw: `${base}/withdraw` },
  }
}

/** What config.pending.changed carries: paths, never values. */
export function pendingFacts(svc: ConfigGovernanceService, p: StoredPending, at: string) {
  return {
    pending_id: p.id,
    scope: kindOf(p),
    tenant_id: p.tenant_id,
    workspace_id: p.workspace_id,
    status: p.status,
    change_ref: p.change_ref,
    approval_ref: p.approval_ref,
    proposer_user_id: p.proposer_user_id,
    decided_by: p.decided_by,
    risk_level: p.risk_level,
    changed_paths: analysePending(svc, p.before, p.after).change_risk.changed_paths,
    applied_change_id: p.applied_change_id,
    at,
  }
}
