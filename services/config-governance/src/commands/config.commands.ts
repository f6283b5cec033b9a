import { ConfigEvents } from '@switchboard/contracts'
import { type Caller, newId, nowIso, type Tx } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import { findChangeForUpdate, insertChange, type StoredChange, updateChangeState } from '../db/changes.repository.ts'
import type { ConfigGovernanceDatabase } from '../db/database.ts'
import { findApprovals, useApproval } from '../db/reviews.repository.ts'
import {
  ensureScopeRow,
  findScopedConfigForUpdate,
  type ScopeKey,
  saveScopedConfig,
} from '../db/scoped-configs.repository.ts'
import { assessChange, type ConfigDocument } from '../domain/change-risk.ts'
import { approvalRefusal } from '../domain/governance.ts'
import {
  applySections,
  type Document,
  fingerprintDocument,
  redactDocument,
  resealDocument,
  sealedSecrets,
  secretFingerprints,
} from '../domain/stored-document.ts'
import { ConfigErrors } from '../errors.ts'
import { approvalsFor, governanceBlocks, stateOf, verificationsByChange } from '../queries/governance.view.ts'
import type { ChangeControl } from './scope.ts'
import { kindOf, scopeFields } from './scope.ts'

type GovTx = Tx<ConfigGovernanceDatabase>

/** What a write answers (and hands the audit record): the scope's document after it, and the entry's governance. */
export type WriteResult = Awaited<ReturnType<typeof execute>>

/**
 * PUT: the sections present replace the stored ones. Rated by the rules; a high-risk change runs only with a
 * recorded approval of another user for its approval_ref + change_ref. Recorded as a history entry awaiting
 * verification, announced with config.scope.changed.
 */
export function putConfig(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  cc: ChangeControl,
  sections: Record<string, Document | null>,
): Promise<WriteResult> {
  checkThresholds(sections)
  return svc.transaction(caller, async (tx) => {
    const now = nowIso()
    await ensureScopeRow(tx.db, key, now)
    const stored = await findScopedConfigForUpdate(tx, key)
    const next = applySections(svc.box, stored.document, sections)
    if ('unknownSecret' in next) throw new ConfigErrors.SecretNotStored(next.unknownSecret)
    return execute(svc, tx, caller, key, cc, 'update', stored, next.document, null, now)
  })
}

/** session_risk's medium threshold above its high one: 400 before anything is read. */
export function checkThresholds(sections: Record<string, Document | null>) {
  const risk = sections.session_risk
  if (
    risk &&
    typeof risk.medium_risk_score === 'number' &&
    typeof risk.high_risk_score === 'number' &&
    risk.medium_risk_score > risk.high_risk_score
  ) {
    throw new ConfigErrors.BadThresholds()
  }
}

/**
 * POST rollback/:audit_id with confirm=true: writes back the entry's `after` snapshot (or, with restore=before, the
 * state before it). Always high risk: it needs an approval like any high-risk change.
 */
export function rollbackConfig(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
  cc: ChangeControl,
  changeId: string,
  restore: 'after' | 'before',
): Promise<WriteResult> {
  return svc.transaction(caller, async (tx) => {
    const now = nowIso()
    const source = await findChangeForUpdate(tx, key, changeId)
    if (!source) throw new ConfigErrors.HistoryNotFound(changeId)
    await ensureScopeRow(tx.db, key, now)
    const stored = await findScopedConfigForUpdate(tx, key)
    // the snapshot's secrets resealed under the current key (a rotation since must not leave them behind)
    const target = resealDocument(svc.box, restore === 'before' ? source.before : source.after)
    const result = await execute(svc, tx, caller, key, cc, 'rollback', stored, target, source.id, now)
    // the source entry is answered: a failed verification of it stops asking for action
    const answered = { ...source, rolled_back_by: result.response.audit_id }
    const [approvals, verifications] = await Promise.all([
      approvalsFor(tx.db, answered),
      verificationsByChange(tx.db, [source.id]).then((m) => m.get(source.id) ?? []),
    ])
    const state = stateOf(governanceBlocks(svc, answered, approvals, verifications))
    await updateChangeState(tx.db, source.id, { ...state, rolled_back_by: answered.rolled_back_by })
    return result
  })
}

/**
 * Runs one change inside the caller's transaction: the approval gate (an approval of another user than `caller`,
 * the executor), the scope's new state, its history entry, the approval spent, config.scope.changed. Also the last
 * step of approving a pending change (pending.commands.ts), with the proposer as executor.
 */
export async function execute(
  svc: ConfigGovernanceService,
  tx: GovTx,
  caller: Caller,
  key: ScopeKey,
  cc: ChangeControl,
  operation: 'update' | 'rollback',
  stored: { document: Document; version: number },
  next: Document,
  sourceChangeId: string | null,
  now: string,
) {
  const risk = assessChange(
    fingerprintDocument(svc.box, stored.document) as ConfigDocument,
    fingerprintDocument(svc.box, next) as ConfigDocument,
    operation,
  )
  const approvals = cc.approval_ref ? await findApprovals(tx.db, key, cc.approval_ref, cc.change_ref) : []
  // an approval backs one execution: one spent on an earlier change does not approve this one
  const unspent = approvals.filter((a) => !a.used_by)
  if (risk.approval_required && approvals.length > 0 && unspent.length === 0) {
    throw ConfigErrors.Refused(
      400,
      'APPROVAL_ALREADY_USED',
      `the approval ${cc.approval_ref} of change ${cc.change_ref} was used by an earlier execution; ask for a new one`,
    )
  }
  const refusal = approvalRefusal(risk, cc, caller.actor.user_id, unspent)
  if (refusal) throw ConfigErrors.Refused(refusal.status, refusal.code, refusal.message)

  const version = stored.version + 1
  const change: StoredChange = {
    id: newId(),
    ...key,
    operation,
    actor_user_id: caller.actor.user_id,
    change_ref: cc.change_ref,
    reason: cc.reason,
    approval_ref: cc.approval_ref,
    source_change_id: sourceChangeId,
    rolled_back_by: null,
    before: stored.document,
    after: next,
    version,
    created_at: now,
  }
  const blocks = governanceBlocks(svc, change, unspent, [])
  await saveScopedConfig(tx.db, key, next, version, now, caller.actor.user_id)
  await insertChange(tx.db, change, stateOf(blocks))
  const backing = unspent.at(-1)
  if (risk.approval_required && backing && !(await useApproval(tx.db, backing.id, change.id))) {
    // another execution took it between the read and now (the scope's row lock makes this rare)
    throw ConfigErrors.Refused(400, 'APPROVAL_ALREADY_USED', `the approval ${cc.approval_ref} was just used`)
  }
  await tx.emit(
    ConfigEvents.scopeChanged,
    {
      scope: kindOf(key),
      ...key,
      version,
      change_id: change.id,
      operation,
      changed_sections: [...new Set(risk.changed_paths.map((p) => p.split('.')[0] as string))].sort(),
      config: redactDocument(next),
      secret_fingerprints: secretFingerprints(svc.box, next),
      sealed_secrets: sealedSecrets(next),
      changed_at: now,
    },
    { tenant_id: key.tenant_id, workspace_id: key.workspace_id },
  )
  return {
    before: redactDocument(stored.document),
    after: redactDocument(next),
    response: {
      ...scopeFields(key),
      config: redactDocument(next),
      secrets: secretFingerprints(svc.box, next),
      version,
      updated_at: now,
      audit_id: change.id,
      ...(sourceChangeId ? { source_audit_id: sourceChangeId } : {}),
      ...blocks,
    },
  }
}
