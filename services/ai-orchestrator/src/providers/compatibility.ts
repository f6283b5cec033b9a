import { setTimeout as sleep } from 'node:timers/promises'
import type { Dispatcher } from 'undici'
import type { CompatibilitySettings } from '../config.ts'
import {
  callJson,
  isObject,
  OutboundFailure,
  type OutboundRequest,
  refusedByGuard,
  trimBase,
} from '../outbound/http.ts'
import { clampScore, firstString, objectOr, topPassages } from './passages.ts'
import { type KnowledgeProvider, type Passage, ProviderError } from './port.ts'

/** The wait before retry n is n times this (linear). */
const RETRY_STEP_MS = 50

/**
 * The compatibility knowledge provider: a WeKnora-style API (`X-API-Key`, optional `X-Tenant-ID`; answers
 * `{success, data, message}`). A call that found no connection or a 5xx is tried again up to `max_retries` times,
 * all attempts within one `timeout_ms` budget (a timed-out call is not repeated: its budget is spent). The API
 * cannot delete documents, so this adapter has no `deleteDocument`. A governed endpoint's calls go through the
 * guarded `dispatcher` (outbound/address-guard.ts).
 */
export function createCompatibilityProvider(
  settings: CompatibilitySettings,
  dispatcher?: Dispatcher,
): KnowledgeProvider {
  const base = trimBase(settings.base_url)
  const kb = settings.knowledge_base_id
  const headers: Record<string, string> = {}
  if (settings.api_key) headers['x-api-key'] = settings.api_key
  if (settings.tenant_id) headers['x-tenant-id'] = settings.tenant_id

  /** The answer's `data`, after retries; `success: false` is the provider refusing ('http'). */
  async function call(method: OutboundRequest['method'], path: string, what: string, body?: unknown) {
    if (!base || !kb)
      throw new ProviderError('compatibility', 'unavailable', 'compatibility provider is not configured (base_url, kb)')
    const label = `compatibility provider ${what}`
    const signal = AbortSignal.timeout(settings.timeout_ms)
    const deadline = Date.now() + settings.timeout_ms
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await callJson({ method, url: `${base}${path}`, headers, body, signal, dispatcher }, label)
        if (!isObject(answer)) throw new OutboundFailure('invalid', `${label} answered no object`)
        if (answer.success === false) {
          const message = firstString(answer.message, objectOr(answer.error).message) ?? 'no reason given'
          throw new OutboundFailure('http', `${label} answered success: false: ${message}`)
        }
        return answer.data
      } catch (err) {
        if (!(err instanceof OutboundFailure)) throw err
        const delay = RETRY_STEP_MS * (attempt + 1)
        const retryable =
          (err.kind === 'connection' && !refusedByGuard(err)) || (err.kind === 'http' && (err.status ?? 0) >= 500)
        if (!retryable || attempt >= settings.max_retries || Date.now() + delay >= deadline)
          throw new ProviderError('compatibility', err.kind, err.message, err.status)
        await sleep(delay)
      }
    }
  }

  const invalid = (what: string) => new ProviderError('compatibility', 'invalid', `compatibility provider ${what}`)

  return {
    id: 'compatibility',

    async retrieve(req) {
      const limit = Math.min(settings.limit, req.limit)
      if (limit <= 0) return []
      const body = { query: req.query, kb_id: kb, limit, threshold: settings.threshold, strategy: settings.strategy }
      const data = await call('POST', '/api/v1/knowledge/search', 'search', body)
      if (!isObject(data) || !Array.isArray(data.results)) throw invalid('search answered no data.results[]')
      const passages = data.results.map(toPassage).filter((p): p is Passage => p !== undefined)
      if (data.results.length > 0 && passages.length === 0) throw invalid('search answered results without content')
      return topPassages(passages, limit)
    },

    async health() {
      const started = performance.now()
      const latency = () => Math.round(performance.now() - started)
      if (!base) return { healthy: false, latency_ms: 0, error: 'compatibility provider is not configured' }
      try {
        // the health probe is not retried: it reports the provider as it is now
        const signal = AbortSignal.timeout(settings.timeout_ms)
        const answer = await callJson(
          { method: 'GET', url: `${base}/api/v1/health`, headers, signal, dispatcher },
          'compatibility provider health',
        )
        if (isObject(answer) && answer.success === false)
          return {
            healthy: false,
            latency_ms: latency(),
            error: 'compatibility provider health answered success: false',
          }
        return { healthy: true, latency_ms: latency() }
      } catch (err) {
        return { healthy: false, latency_ms: latency(), error: (err as Error).message }
      }
    },

    // No update in this API: a changed document is uploaded again (the earlier version stays in the provider).
    async upsertDocument(doc) {
      const body = { type: 'text', title: doc.title, content: doc.content, tags: doc.tags }
      const data = await call('POST', `/api/v1/knowledge/${encodeURIComponent(kb)}/documents`, 'upload', body)
      const id = isObject(data) ? firstString(data.id) : undefined
      if (!id) throw invalid('upload answered no data.id')
      return { external_id: id }
    },
  }
}

function toPassage(result: unknown): Passage | undefined {
  if (!isObject(result)) return undefined
  const content = firstString(result.content)
  if (content === undefined) return undefined
  const passage: Passage = {
    document_id: firstString(result.document_id, result.id) ?? '',
    title: firstString(result.title) ?? '',
    content,
    score: clampScore(result.score),
    source: 'compatibility',
  }
  const highlights = Array.isArray(result.highlights)
    ? result.highlights.filter((h): h is string => typeof h === 'string')
    : []
  if (highlights.length > 0) passage.highlights = highlights
  const metadata = {
    ...objectOr(result.metadata),
    ...(typeof result.source === 'string' ? { origin: result.source } : {}),
  }
  if (Object.keys(metadata).length > 0) passage.metadata = metadata
  if (typeof result.chunk_index === 'number' && Number.isInteger(result.chunk_index))
    passage.chunk_index = result.chunk_index
  return passage
}
