import type { Dispatcher } from 'undici'
import type { PrimarySettings } from '../config.ts'
import { isObject, OutboundFailure, type OutboundRequest, readJson, send, trimBase } from '../outbound/http.ts'
import { clampScore, firstString, objectOr, topPassages } from './passages.ts'
import { type KnowledgeProvider, type Passage, ProviderError } from './port.ts'

/**
 * The primary knowledge provider: a Dify-style knowledge API (`base_url` includes its `/v1`, bearer key). Every
 * call names the configured dataset — never a session's id (the earlier system's defect) — and is bounded by
 * `timeout_ms`. A governed endpoint's calls go through the guarded `dispatcher` (outbound/address-guard.ts).
 */
export function createPrimaryProvider(settings: PrimarySettings, dispatcher?: Dispatcher): KnowledgeProvider {
  const base = trimBase(settings.base_url)
  const dataset = `${base}/datasets/${encodeURIComponent(settings.dataset_id)}`
  const headers: Record<string, string> = settings.api_key ? { authorization: `Bearer ${settings.api_key}` } : {}

  async function call(method: OutboundRequest['method'], path: string, what: string, body?: unknown) {
    if (!base || !settings.dataset_id)
      throw new ProviderError('primary', 'unavailable', 'primary provider is not configured (base_url, dataset_id)')
    try {
      const signal = AbortSignal.timeout(settings.timeout_ms)
      const res = await send(
        { method, url: `${dataset}${path}`, headers, body, signal, dispatcher },
        `primary provider ${what}`,
      )
      // a delete answers 200 with JSON or 204 with nothing, depending on the version: its body is not read
      if (method === 'DELETE') return await res.body?.cancel()
      return await readJson(res, `primary provider ${what}`)
    } catch (err) {
      throw err instanceof OutboundFailure ? new ProviderError('primary', err.kind, err.message, err.status) : err
    }
  }

  const invalid = (what: string) => new ProviderError('primary', 'invalid', `primary provider ${what}`)

  async function createDocument(name: string, text: string) {
    const body = { name, text, indexing_technique: 'high_quality', process_rule: { mode: 'automatic' } }
    const id = documentId(await call('POST', '/document/create-by-text', 'document create', body))
    if (!id) throw invalid('document create answered no document.id')
    return { external_id: id }
  }

  return {
    id: 'primary',

    async retrieve(req) {
      const limit = Math.min(settings.top_k, req.limit)
      if (limit <= 0) return []
      const body = {
        query: req.query,
        retrieval_model: {
          search_method: settings.search_method,
          reranking_enable: settings.reranking_enable,
          top_k: limit,
          // Dify applies score_threshold only when this is set
          score_threshold_enabled: settings.score_threshold > 0,
          score_threshold: settings.score_threshold,
        },
      }
      const answer = await call('POST', '/retrieve', 'retrieve', body)
      if (!isObject(answer) || !Array.isArray(answer.records)) throw invalid('retrieve answered no records[]')
      const passages = answer.records.map(toPassage).filter((p): p is Passage => p !== undefined)
      if (answer.records.length > 0 && passages.length === 0) throw invalid('retrieve answered records without content')
      return topPassages(passages, limit)
    },

    async health() {
      const started = performance.now()
      const latency = () => Math.round(performance.now() - started)
      try {
        const answer = await call('GET', '', 'health')
        if (!isObject(answer) || firstString(answer.id) === undefined)
          return { healthy: false, latency_ms: latency(), error: 'primary provider health answered no dataset id' }
        return { healthy: true, latency_ms: latency() }
      } catch (err) {
        return { healthy: false, latency_ms: latency(), error: (err as Error).message }
      }
    },

    async upsertDocument(doc) {
      if (doc.external_id) {
        const path = `/documents/${encodeURIComponent(doc.external_id)}/update-by-text`
        try {
          const id = documentId(await call('POST', path, 'document update', { name: doc.title, text: doc.content }))
          return { external_id: id ?? doc.external_id }
        } catch (err) {
          // removed in the provider meanwhile: made again
          if (!(err instanceof ProviderError && err.status === 404)) throw err
        }
      }
      return createDocument(doc.title, doc.content)
    },

    async deleteDocument(externalId) {
      try {
        await call('DELETE', `/documents/${encodeURIComponent(externalId)}`, 'document delete')
      } catch (err) {
        // already gone is what was asked for
        if (!(err instanceof ProviderError && err.status === 404)) throw err
      }
    },
  }
}

/** `document.id` of a create/update answer. */
function documentId(answer: unknown): string | undefined {
  return isObject(answer) ? firstString(objectOr(answer.document).id) : undefined
}

/** One record of a retrieve answer: Dify nests it under `segment` (and `segment.document`); flat fields also read. */
function toPassage(record: unknown): Passage | undefined {
  if (!isObject(record)) return undefined
  const segment = objectOr(record.segment)
  const document = objectOr(segment.document)
  const content = firstString(segment.content, record.content)
  if (content === undefined) return undefined
  const segmentId = firstString(segment.id, record.segment_id)
  const metadata = { ...objectOr(record.metadata), ...(segmentId ? { segment_id: segmentId } : {}) }
  return {
    document_id: firstString(document.id, segment.document_id, record.document_id) ?? segmentId ?? '',
    title: firstString(document.name, record.title) ?? '',
    content,
    score: clampScore(record.score),
    source: 'primary',
    metadata,
  }
}
