import { scopeFields } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import type { StoredChange } from '../db/changes.repository.ts'
import { findChange, type HistoryFilters, listChanges, summarizeChanges } from '../db/changes.repository.ts'
import { findScopedConfig, type ScopeKey } from '../db/scoped-configs.repository.ts'
import type { ConfigDocument } from '../domain/change-risk.ts'
import { diffDocuments } from '../domain/config-paths.ts'
import { fingerprintDocument, redactDocument, secretFingerprints } from '../domain/stored-document.ts'
import { ConfigErrors } from '../errors.ts'
import type { HistoryQuery } from '../schemas/governance.schemas.ts'
import { approvalsFor, governanceBlocks, verificationsByChange } from './governance.view.ts'

/** GET: the scope's stored overrides, secrets redacted (their fingerprints beside). */
export async function readConfig(svc: ConfigGovernanceService, key: ScopeKey) {
  const stored = await findScopedConfig(svc.db, key)
  return {
    ...scopeFields(key),
    config: redactDocument(stored.document),
    secrets: secretFingerprints(svc.box, stored.document),
    version: stored.version,
    updated_at: stored.updated_at,
  }
}

const auditOf = (c: StoredChange) => ({
  id: c.id,
  action: c.operation,
  actor_user_id: c.actor_user_id,
  created_at: c.created_at,
  change_ref: c.change_ref,
  reason: c.reason,
  approval_ref: c.approval_ref,
  source_audit_id: c.source_change_id,
  version: c.version,
})

/** GET history: the governance queue, newest first, filtered, with counts over the scope's whole history. */
export async function listHistory(svc: ConfigGovernanceService, key: ScopeKey, q: HistoryQuery) {
  const page = q.page ?? 1
  const pageSize = q.page_size ?? 20
  const filters: HistoryFilters = {
    operation: q.action,
    governance_status: q.governance_status,
    risk_level: q.risk_level,
    approval_status: q.approval_status,
    verification_status: q.verification_status,
    needs_action: q.needs_action,
  }
  const [{ changes, total }, summary] = await Promise.all([
    listChanges(svc.db, key, filters, page, pageSize),
    summarizeChanges(svc.db, key),
  ])
  const verifications = await verificationsByChange(
    svc.db,
    changes.map((c) => c.id),
  )
  const data = await Promise.all(
    changes.map(async (c) => ({
      audit: auditOf(c),
      has_snapshot: true,
      can_rollback: true,
      ...governanceBlocks(svc, c, await approvalsFor(svc.db, c), verifications.get(c.id) ?? []),
    })),
  )
  const applied = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined))
  return {
    data,
    total,
    page,
    page_size: pageSize,
    pages: Math.max(1, Math.ceil(total / pageSize)),
    governance_summary: summary,
    applied_filters: Object.keys(applied).length > 0 ? applied : null,
  }
}

/** GET history/:audit_id: the entry, its snapshot against the scope's current state, its verifications. */
export async function readHistoryEntry(svc: ConfigGovernanceService, key: ScopeKey, id: string) {
  const change = await findChange(svc.db, key, id)
  if (!change) throw new ConfigErrors.HistoryNotFound(id)
  const [current, approvals, verifications] = await Promise.all([
    findScopedConfig(svc.db, key),
    approvalsFor(svc.db, change),
    verificationsByChange(svc.db, [change.id]).then((m) => m.get(change.id) ?? []),
  ])
  // snapshot → current: what a rollback to this entry would change
  const diff = diffDocuments(
    fingerprintDocument(svc.box, current.document) as ConfigDocument,
    fingerprintDocument(svc.box, change.after) as ConfigDocument,
  )
  return {
    audit: auditOf(change),
    has_snapshot: true,
    can_rollback: true,
    ...governanceBlocks(svc, change, approvals, verifications),
    snapshot: redactDocument(change.after),
    before: redactDocument(change.before),
    current: redactDocument(current.document),
    diff: { ...diff, scope_changed: diff.changed_paths.length > 0, direction: 'current → snapshot' },
    verifications: verifications.map((v) => ({ audit_id: v.id, ...v })),
  }
}
