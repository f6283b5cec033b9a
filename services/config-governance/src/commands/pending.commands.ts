import { ConfigEvents } from '@switchboard/contracts'
import { type Caller, newId, nowIso, type Tx } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import type { ConfigGovernanceDatabase } from '../db/database.ts'
import {
  decidePending,
  findPendingForUpdate,
  insertPending,
  type StoredPending,
} from '../db/pending-changes.repository.ts'
import { insertApproval, type StoredApproval } from '../db/reviews.repository.ts'
import {
  ensureScopeRow,
  findScopedConfig,
  findScopedConfigForUpdate,
  type ScopeKey,
} from '../db/scoped-configs.repository.ts'
import { applySections, type Document, redactDocument, resealDocument } from '../domain/stored-document.ts'
import { ConfigErrors } from '../errors.ts'
import { analysePending, pendingFacts, pendingView } from '../queries/pending.view.ts'
import { checkThresholds, execute } from './config.commands.ts'
import type { ChangeControl } from './scope.ts'

type GovTx = Tx<ConfigGovernanceDatabase>

/** A caller that can review: a user, not the system or an anonymous principal. */
const isUser = (caller: Caller) => Boolean(caller.actor.user_id) && caller.actor.user_id !== 'system'

/**
 * POST pending: a high-risk change proposed to wait, unapplied, for a second administrator (README "Pending
 * changes"). Its documents are kept as the scope is stored (secrets sealed); a change that needs no approval is
 * refused (PUT applies it at once).
 */
export function proposeChange(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  cc: ChangeControl,
  sections: Record<string, Document | null>,
) {
  checkThresholds(sections)
  if (!isUser(caller)) throw new ConfigErrors.ReviewerRequired(caller.actor.user_id || 'an anonymous caller')
  return svc.transaction(caller, async (tx) => {
    const now = nowIso()
    const stored = await findScopedConfig(tx.db, key)
    const next = applySections(svc.box, stored.document, sections)
    if ('unknownSecret' in next) throw new ConfigErrors.SecretNotStored(next.unknownSecret)
    const { change_risk } = analysePending(svc, stored.document, next.document)
    if (!change_risk.approval_required) throw new ConfigErrors.ApprovalNotRequired(change_risk.risk_level)
    const id = newId()
    const pending: StoredPending = {
      id,
      ...key,
      status: 'pending',
      proposer_user_id: caller.actor.user_id,
      change_ref: cc.change_ref,
      reason: cc.reason,
      approval_ref: cc.approval_ref ?? `pending-${id}`,
      base_version: stored.version,
      before: stored.document,
      after: next.document,
      risk_level: change_risk.risk_level,
      decided_by: null,
      decided_at: null,
      decision_notes: null,
      applied_change_id: null,
      created_at: now,
    }
    await insertPending(tx.db, pending)
    await announce(svc, tx, pending, now)
    const view = pendingView(svc, pending, caller)
    return { before: null, after: auditFace(pending, view), response: view }
  })
}

/**
 * POST pending/:id/approve: a second administrator's yes, and the change runs in the same transaction. The approval
 * is recorded like any other (approval_ref + change_ref, this caller) and the change executes as its proposer's, so
 * the rules' gate (approver ≠ executor) holds by construction and the history names who changed what.
 */
export function approvePending(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  id: string,
  body: { notes: string; evidence?: string[] | undefined },
) {
  if (!isUser(caller)) throw new ConfigErrors.ReviewerRequired(caller.actor.user_id || 'an anonymous caller')
  if (!body.notes.trim()) throw new ConfigErrors.ApprovalNotesRequired()
  return svc.transaction(caller, async (tx) => {
    const now = nowIso()
    const pending = await openPending(tx, key, id)
    if (pending.proposer_user_id === caller.actor.user_id) {
      throw ConfigErrors.Refused(
        403,
        'APPROVAL_SAME_ACTOR',
        `${caller.actor.user_id} proposed this change; a different administrator must approve it`,
      )
    }
    await ensureScopeRow(tx.db, key, now)
    const stored = await findScopedConfigForUpdate(tx, key)
    if (stored.version !== pending.base_version) {
      throw new ConfigErrors.PendingStale(String(pending.base_version), String(stored.version))
    }
    const approval: StoredApproval = {
      id: newId(),
      approval_ref: pending.approval_ref,
      change_ref: pending.change_ref,
      reason: pending.reason,
      actor_user_id: caller.actor.user_id,
      notes: body.notes,
      evidence: body.evidence ?? [],
      used_by: null,
      created_at: now,
    }
    await insertApproval(tx.db, key, approval)
    const cc = { change_ref: pending.change_ref, reason: pending.reason, approval_ref: pending.approval_ref }
    const proposer: Caller = { ...caller, actor: { ...caller.actor, user_id: pending.proposer_user_id } }
    // secrets sealed under a key rotated since the proposal are resealed under the current one
    const target = resealDocument(svc.box, pending.after)
    const applied = await execute(svc, tx, proposer, key, cc, 'update', stored, target, null, now)
    const decided = await decide(tx, pending, caller, now, body.notes, 'approved', applied.response.audit_id)
    await announce(svc, tx, decided, now)
    const view = pendingView(svc, decided, caller)
    const shownApproval = { audit_id: approval.id, ...approval, change_control: cc }
    return {
      before: { pending: auditFace(pending, pendingView(svc, pending, caller)), config: applied.before },
      after: { pending: auditFace(decided, view), approval: shownApproval, config: applied.after },
      response: { pending: view, approval: shownApproval, applied: applied.response },
    }
  })
}

/** POST pending/:id/reject (another administrator) or withdraw (its proposer): decided, nothing applied. */
export function closePending(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  id: string,
  how: 'rejected' | 'withdrawn',
  body: { notes?: string | undefined },
) {
  if (!isUser(caller)) throw new ConfigErrors.ReviewerRequired(caller.actor.user_id || 'an anonymous caller')
  const notes = body.notes?.trim() ?? ''
  if (how === 'rejected' && !notes) throw new ConfigErrors.DecisionNotesRequired()
  return svc.transaction(caller, async (tx) => {
    const now = nowIso()
    const pending = await openPending(tx, key, id)
    const own = pending.proposer_user_id === caller.actor.user_id
    if (how === 'rejected' && own) throw new ConfigErrors.RejectSameActor(caller.actor.user_id)
    if (how === 'withdrawn' && !own) throw new ConfigErrors.WithdrawProposerOnly(pending.proposer_user_id)
    const decided = await decide(tx, pending, caller, now, notes, how)
    await announce(svc, tx, decided, now)
    const view = pendingView(svc, decided, caller)
    return {
      before: auditFace(pending, pendingView(svc, pending, caller)),
      after: auditFace(decided, view),
      response: view,
    }
  })
}

/** The scope's pending change, locked, still undecided: 404 (also for another scope's) or 409. */
async function openPending(tx: GovTx, key: ScopeKey, id: string) {
  const pending = await findPendingForUpdate(tx, key, id)
  if (!pending) throw new ConfigErrors.PendingNotFound(id)
  if (pending.status !== 'pending') throw new ConfigErrors.PendingDecided(id, pending.status)
  return pending
}

async function decide(
  tx: GovTx,
  pending: StoredPending,
  caller: Caller,
  now: string,
  notes: string,
  status: 'approved' | 'rejected' | 'withdrawn',
  appliedChangeId?: string,
): Promise<StoredPending> {
  const decision = {
    status,
    decided_by: caller.actor.user_id,
    decided_at: now,
    decision_notes: notes,
    ...(appliedChangeId ? { applied_change_id: appliedChangeId } : {}),
  }
  if (!(await decidePending(tx.db, pending.id, decision))) throw new ConfigErrors.PendingDecided(pending.id, 'decided')
  return { ...pending, ...decision, applied_change_id: appliedChangeId ?? null }
}

function announce(svc: ConfigGovernanceService, tx: GovTx, p: StoredPending, now: string) {
  return tx.emit(ConfigEvents.pendingChanged, pendingFacts(svc, p, now), {
    tenant_id: p.tenant_id,
    workspace_id: p.workspace_id,
  })
}

/** What the audit record keeps: the view (diff redacted) and the proposed document, redacted. */
const auditFace = (p: StoredPending, view: object) => ({ ...view, proposed_config: redactDocument(p.after) })
