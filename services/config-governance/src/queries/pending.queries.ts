import type { Caller } from '@switchboard/platform'
import { checkThresholds } from '../commands/config.commands.ts'
import { scopeFields } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import { findPending, listPending, type PendingStatus } from '../db/pending-changes.repository.ts'
import { findScopedConfig, type ScopeKey } from '../db/scoped-configs.repository.ts'
import { applySections, type Document } from '../domain/stored-document.ts'
import { ConfigErrors } from '../errors.ts'
import type { PendingQuery } from '../schemas/pending.schemas.ts'
import { analysePending, pendingView } from './pending.view.ts'

/** GET pending: the scope's proposals (default: those still waiting), newest first. */
export async function listPendingChanges(svc: ConfigGovernanceService, caller: Caller, key: ScopeKey, q: PendingQuery) {
  const page = q.page ?? 1
  const pageSize = q.page_size ?? 20
  const status = q.status === 'all' ? undefined : ((q.status ?? 'pending') as PendingStatus)
  const { items, total } = await listPending(svc.db, key, status, page, pageSize)
  return {
    data: items.map((p) => pendingView(svc, p, caller)),
    total,
    page,
    page_size: pageSize,
    pages: Math.max(1, Math.ceil(total / pageSize)),
  }
}

/** GET pending/:id; another scope's proposal answers 404 like a missing one. */
export async function readPending(svc: ConfigGovernanceService, caller: Caller, key: ScopeKey, id: string) {
  const pending = await findPending(svc.db, key, id)
  if (!pending) throw new ConfigErrors.PendingNotFound(id)
  return pendingView(svc, pending, caller)
}

/**
 * POST preview: what a PUT (or a proposal) of these sections would change and how risky it is, against the scope's
 * current state; nothing stored. The console shows it before anything is sent.
 */
export async function previewChange(
  svc: ConfigGovernanceService,
  key: ScopeKey,
  sections: Record<string, Document | null>,
) {
  checkThresholds(sections)
  const stored = await findScopedConfig(svc.db, key)
  const next = applySections(svc.box, stored.document, sections)
  if ('unknownSecret' in next) throw new ConfigErrors.SecretNotStored(next.unknownSecret)
  return { ...scopeFields(key), ...analysePending(svc, stored.document, next.document), base_version: stored.version }
}
