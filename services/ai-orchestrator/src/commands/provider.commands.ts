import type { Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { AiErrors } from '../errors.ts'
import {
  type DocumentInput,
  EXTERNAL_PROVIDERS,
  type ExternalProviderId,
  type KnowledgeProvider,
  ProviderError,
} from '../providers/port.ts'

/**
 * Where a scope's documents go: its first usable external provider — unless that provider is the one every tenant is
 * answered from (the system's data: same endpoint and dataset), which holds system-scope documents only (`shared`).
 * A tenant's document there would answer other tenants' questions; it stays local (the local knowledge base answers
 * the tenant's own questions with it) until the scope has a provider of its own (config-governance).
 */
async function placeOf(svc: AiService, scope: Scope): Promise<{ provider: KnowledgeProvider | null; shared: boolean }> {
  const runtime = await svc.runtimes.forScope(scope)
  const provider = await runtime.providers.activeExternal()
  const systemScope = !scope.tenant_id && !scope.workspace_id
  const shared = !!provider && !systemScope && svc.runtimes.sharedWithSystem(runtime, provider.id as ExternalProviderId)
  return { provider, shared }
}

/** The provider a scope's documents are upserted into, or null: none usable, or only the shared one. */
export async function providerFor(svc: AiService, scope: Scope): Promise<KnowledgeProvider | null> {
  const { provider, shared } = await placeOf(svc, scope)
  return shared ? null : provider
}

/**
 * The provider an upload or a sync of a scope goes to: none configured, or every one switched off → 409 (logged at
 * info: a setting to change, not a failure); the provider every tenant is answered from, for a tenant → 403 (only a
 * platform operator, unscoped, adds to it).
 */
export async function activeProvider(svc: AiService, scope: Scope): Promise<KnowledgeProvider> {
  const { provider, shared } = await placeOf(svc, scope)
  if (shared) {
    throw new AiErrors.ProviderShared(
      'the active provider is shared by every tenant: only system-scope documents go there; give this scope its own',
    )
  }
  if (!provider) {
    const { settings } = await svc.runtimes.forScope(scope)
    const configured = EXTERNAL_PROVIDERS.some((id) => settings[id].enabled)
    const message = configured
      ? 'every knowledge provider is switched off (PUT /api/v1/ai/knowledge-provider/enable)'
      : 'no knowledge provider is configured for this scope'
    svc.log.info({ scope, configured }, `knowledge upload or sync refused: ${message}`)
    throw new AiErrors.ProviderNotConfigured(message)
  }
  return provider
}

/**
 * A provider failure of a call a client asked for directly (upload, sync): timeout → 504, not configured for it →
 * 409, any other failure → 502. (A query never gets these: it falls back.)
 */
export function providerFailure(err: unknown): Error {
  if (!(err instanceof ProviderError)) return err as Error
  const message = `${err.provider} provider: ${err.message}`
  if (err.kind === 'timeout') return new AiErrors.ProviderTimeout(message)
  if (err.kind === 'unavailable' || err.kind === 'unsupported') return new AiErrors.ProviderNotConfigured(message)
  return new AiErrors.ProviderFailed(message)
}

/** POST /api/v1/ai/knowledge/upload: one document straight into the active provider. */
export async function uploadDocument(svc: AiService, scope: Scope, doc: DocumentInput) {
  const provider = await activeProvider(svc, scope)
  try {
    const { external_id } = await provider.upsertDocument(doc)
    return { title: doc.title, tags: doc.tags, provider: provider.id, external_id }
  } catch (err) {
    throw providerFailure(err)
  }
}
