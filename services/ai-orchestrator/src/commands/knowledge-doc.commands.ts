import { type Caller, concreteScope, newId, nowIso, pageWindow, type Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import {
  deleteDoc,
  exactly,
  findDoc,
  findDocForUpdate,
  insertDoc,
  listDocs,
  writeDoc,
} from '../db/knowledge-docs.repository.ts'
import { AiErrors } from '../errors.ts'
import { EXTERNAL_PROVIDERS, type ExternalProviderId, ProviderError } from '../providers/port.ts'
import type {
  CreateKnowledgeDocBody,
  KnowledgeDoc,
  KnowledgeDocWritten,
  SyncResult,
  UpdateKnowledgeDocBody,
} from '../schemas/knowledge-docs.schemas.ts'
import { activeProvider, providerFailure, providerFor } from './provider.commands.ts'

/**
 * Knowledge docs: written locally first, then upserted into the active external provider, whose
 * id and document id are kept. A provider that fails loses nothing: the doc stays saved with `sync_error` set and
 * the answer says so (`sync.status: 'failed'`); the next write of the doc tries again. The provider is called
 * outside any transaction, so a slow one holds no lock.
 */

/**
 * The scope a new doc belongs to: the caller's, or — for an administrator without any — the system's ('' / ''),
 * whose public docs the portal shows to callers that name no scope. Half a scope is refused (400).
 */
export function docScopeOf(caller: Caller): Scope {
  if (!caller.scope.tenant_id && !caller.scope.workspace_id) return { tenant_id: '', workspace_id: '' }
  return concreteScope(caller)
}

export async function createDoc(
  svc: AiService,
  caller: Caller,
  body: CreateKnowledgeDocBody,
): Promise<KnowledgeDocWritten> {
  const scope = docScopeOf(caller)
  const now = nowIso()
  const doc: KnowledgeDoc = {
    id: newId(),
    ...scope,
    title: titleOf(body.title),
    content: body.content,
    category: body.category ?? 'general',
    tags: unique(body.tags ?? []),
    is_public: body.is_public ?? false,
    provider_id: null,
    external_id: null,
    sync_error: null,
    created_at: now,
    updated_at: now,
  }
  await svc.transaction(caller, (tx) => insertDoc(tx.db, doc))
  return syncDoc(svc, caller, doc)
}

export async function updateDoc(
  svc: AiService,
  caller: Caller,
  id: string,
  body: UpdateKnowledgeDocBody,
): Promise<{ before: KnowledgeDoc; after: KnowledgeDocWritten }> {
  const { before, after } = await svc.transaction(caller, async (tx) => {
    const before = await findDocForUpdate(tx, id, caller.scope)
    if (!before) throw new AiErrors.DocNotFound(id)
    const patch: Partial<KnowledgeDoc> = { updated_at: nowIso() }
    if (body.title !== undefined) patch.title = titleOf(body.title)
    if (body.content !== undefined) patch.content = body.content
    if (body.category !== undefined) patch.category = body.category
    if (body.tags !== undefined) patch.tags = unique(body.tags)
    if (body.is_public !== undefined) patch.is_public = body.is_public
    await writeDoc(tx.db, id, patch)
    return { before, after: { ...before, ...patch } }
  })
  return { before, after: await syncDoc(svc, caller, after) }
}

/**
 * Removes a doc, and first its copy in the provider that holds one. When that provider cannot delete documents
 * (compatibility) the local doc is kept and the answer is 409 saying so (reference: "unsupported delete keeps the
 * local doc and says so"); when it is switched off (409), or fails (502/504), the doc is kept too, so a delete never
 * leaves a copy behind that nobody knows of.
 */
export async function removeDoc(svc: AiService, caller: Caller, id: string): Promise<KnowledgeDoc> {
  const doc = await findDoc(svc.db, id, caller.scope)
  if (!doc) throw new AiErrors.DocNotFound(id)
  const holder = externalId(doc.provider_id)
  if (holder && doc.external_id) {
    // the doc's scope's runtime: its copy lives in that scope's provider
    const { providers } = await svc.runtimes.forScope({ tenant_id: doc.tenant_id, workspace_id: doc.workspace_id })
    const provider = providers.external(holder)
    if (provider && !provider.deleteDocument) {
      throw new AiErrors.DeleteUnsupported(
        `the ${holder} provider cannot delete documents: knowledge doc ${id} is kept (remove its copy there by hand)`,
      )
    }
    if (!provider?.deleteDocument || !(await providers.isEnabled(holder))) {
      throw new AiErrors.ProviderNotConfigured(
        `knowledge doc ${id} has a copy in the ${holder} provider, which is not enabled: the doc is kept`,
      )
    }
    try {
      await provider.deleteDocument(doc.external_id)
    } catch (err) {
      throw providerFailure(err)
    }
  }
  await svc.transaction(caller, (tx) => deleteDoc(tx.db, id))
  return doc
}

/**
 * Upserts the doc into its scope's active provider and records the outcome on it (unless a newer write came since);
 * the local doc is kept whatever the provider answers.
 */
export async function syncDoc(svc: AiService, caller: Caller, doc: KnowledgeDoc): Promise<KnowledgeDocWritten> {
  const scope = { tenant_id: doc.tenant_id, workspace_id: doc.workspace_id }
  const provider = await providerFor(svc, scope)
  let patch: Pick<KnowledgeDoc, 'provider_id' | 'external_id' | 'sync_error'>
  let result: SyncResult
  if (!provider) {
    // a copy made earlier is now behind this write: say so on the doc rather than pretend it is current
    const sync_error = doc.provider_id ? `not updated in the ${doc.provider_id} provider: it is not enabled` : null
    patch = { provider_id: doc.provider_id, external_id: doc.external_id, sync_error }
    result = { provider: null, status: 'local_only' }
  } else {
    try {
      const { external_id } = await provider.upsertDocument({
        title: doc.title,
        content: doc.content,
        tags: doc.tags,
        external_id: doc.provider_id === provider.id ? doc.external_id : null,
      })
      patch = { provider_id: provider.id, external_id, sync_error: null }
      result = { provider: provider.id, status: 'synced' }
    } catch (err) {
      if (!(err instanceof ProviderError)) svc.log.error({ err, doc_id: doc.id }, 'knowledge doc sync failed')
      else svc.log.warn({ err, doc_id: doc.id }, 'knowledge doc not synced to the provider')
      const error = err instanceof ProviderError ? `${provider.id} provider: ${err.message}` : 'unexpected error'
      patch = { provider_id: doc.provider_id, external_id: doc.external_id, sync_error: error }
      result = { provider: provider.id, status: 'failed', error }
    }
  }
  await svc.transaction(caller, (tx) => writeDoc(tx.db, doc.id, patch, { unchangedSince: doc.updated_at }))
  return { ...doc, ...patch, sync: result }
}

const externalId = (id: string | null): ExternalProviderId | undefined => EXTERNAL_PROVIDERS.find((p) => p === id)

function titleOf(title: string): string {
  const trimmed = title.trim()
  if (!trimmed) throw new AiErrors.BlankTitle()
  return trimmed
}

const unique = (tags: string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))]

/** Docs sent per page by a whole-scope sync. */
const SYNC_PAGE = 100

/**
 * POST /api/v1/ai/knowledge/sync: every knowledge doc of the caller's scope upserted into the active provider, page
 * by page. No provider enabled → 503 before anything is tried; when every doc failed → 504 (all timed out) or 502;
 * otherwise the counts, the failures named.
 */
export async function syncScope(svc: AiService, caller: Caller) {
  const scope = docScopeOf(caller)
  const provider = await activeProvider(svc, scope)
  let synced = 0
  const failed: Array<{ id: string; error: string }> = []
  for (let page = 1; ; page++) {
    const { rows } = await listDocs(svc.db, svc.dialect, exactly(scope), {}, pageWindow({ page, page_size: SYNC_PAGE }))
    for (const doc of rows) {
      const written = await syncDoc(svc, caller, doc)
      if (written.sync.status === 'synced') synced++
      else failed.push({ id: doc.id, error: written.sync.error ?? written.sync.status })
    }
    if (rows.length < SYNC_PAGE) break
  }
  if (synced === 0 && failed.length > 0) {
    const first = `${failed.length} docs not synced; first: ${failed[0]?.error}`
    const timedOut = failed.every((f) => /timed out|timeout/i.test(f.error))
    throw timedOut ? new AiErrors.ProviderTimeout(first) : new AiErrors.ProviderFailed(first)
  }
  return { provider: provider.id, synced, failed: failed.length, failures: failed.slice(0, 20) }
}
