import { randomUUID } from 'node:crypto'
import type { CompatibilitySettings, PrimarySettings } from '../../src/config.ts'
import {
  type Reply,
  type StandIn,
  type StandInOptions,
  type StandInRequest,
  startStandIn,
  words,
} from './stand-in-server.ts'

export { type RecordedRequest, refusingUrl, type StandIn, type StandInMode } from './stand-in-server.ts'

/**
 * Small real servers that speak the APIs this service calls — a Dify-style knowledge API (primary), a WeKnora-style
 * one (compatibility) and the OpenAI chat API — for the tests of the adapters, the orchestrator, the e2e suites and
 * the benchmark. Each records its requests and can be switched to misbehave (stand-in-server.ts: modes).
 */

/** A document a knowledge stand-in holds. */
export interface StandInDoc {
  id?: string
  title: string
  content: string
  tags?: string[]
}

interface HeldDoc {
  id: string
  title: string
  content: string
  tags: string[]
}

/** The documents matching a query, best first: score = share of the query's words found in the title or content. */
function search(docs: Map<string, HeldDoc>, query: string, limit: number, threshold: number, scale = 1) {
  const asked = [...new Set(words(query))]
  if (asked.length === 0) return []
  return [...docs.values()]
    .map((doc) => {
      const held = new Set(words(`${doc.title} ${doc.content}`))
      const share = asked.filter((w) => held.has(w)).length / asked.length
      return { doc, share, score: Math.round(share * scale * 1000) / 1000 }
    })
    .filter((hit) => hit.share > 0 && hit.share >= threshold)
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(0, limit))
}

const hold = (docs: StandInDoc[]) =>
  new Map(docs.map((d, i) => [d.id ?? `doc-${i + 1}`, { id: d.id ?? `doc-${i + 1}`, tags: [], ...d } as HeldDoc]))

const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {}
const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d)

export interface KnowledgeStandIn<S> extends StandIn {
  /** the documents it holds, by id (documents created through the API included) */
  readonly docs: Map<string, HeldDoc>
  /** settings of the matching adapter pointing at this stand-in (enabled, short timeout), with overrides */
  settings(overrides?: Partial<S>): S
  /** scores are the share of the query's words a document holds, times this (a reranker's scale: above 1) */
  scoreScale: number
}

/**
 * The primary provider's API (Dify-style, under `/v1`): `GET /datasets/:id`, `POST /datasets/:id/retrieve`,
 * `POST /datasets/:id/document/create-by-text`, `POST /datasets/:id/documents/:doc/update-by-text`,
 * `DELETE /datasets/:id/documents/:doc`; `Authorization: Bearer <apiKey>` or 401; another dataset is 404.
 */
export async function startPrimaryStandIn(
  opts: StandInOptions & { docs?: StandInDoc[]; apiKey?: string; datasetId?: string; scoreScale?: number } = {},
): Promise<KnowledgeStandIn<PrimarySettings> & { apiKey: string; datasetId: string }> {
  const apiKey = opts.apiKey ?? 'primary-key'
  const datasetId = opts.datasetId ?? 'dataset-1'
  const docs = hold(opts.docs ?? [])
  // the returned stand-in once started (its knobs are what the test set)
  let self = { scoreScale: opts.scoreScale ?? 1 }
  const notFound: Reply = { status: 404, json: { code: 'not_found', message: 'Not found.', status: 404 } }
  const documentOf = (d: HeldDoc) => ({ id: d.id, name: d.title, indexing_status: 'waiting' })

  function handle(req: StandInRequest): Reply {
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return { status: 401, json: { code: 'unauthorized', message: 'Access token is invalid', status: 401 } }
    const [root, id, ...rest] = req.segments
    if (root !== 'datasets' || id !== datasetId) return notFound
    const body = obj(req.body)
    const docId = rest[0] === 'documents' ? (rest[1] ?? '') : ''
    const route = `${req.method} ${rest.join('/').replace(`documents/${docId}`, 'documents/:doc')}`
    switch (route) {
      case 'GET ':
        return { status: 200, json: { id: datasetId, name: 'stand-in dataset', document_count: docs.size } }
      case 'POST retrieve': {
        const model = obj(body.retrieval_model)
        const threshold = model.score_threshold_enabled ? num(model.score_threshold, 0) : 0
        const hits = search(docs, String(body.query ?? ''), num(model.top_k, 4), threshold, self.scoreScale)
        const records = hits.map(({ doc, score }, i) => ({
          segment: {
            id: `${doc.id}-seg-1`,
            position: 1,
            document_id: doc.id,
            content: doc.content,
            document: { id: doc.id, data_source_type: 'upload_file', name: doc.title },
          },
          score,
          tsne_position: null,
          rank: i,
        }))
        return { status: 200, json: { query: { content: body.query }, records } }
      }
      case 'POST document/create-by-text': {
        if (typeof body.name !== 'string' || typeof body.text !== 'string')
          return { status: 400, json: { code: 'invalid_param', message: 'name and text are required', status: 400 } }
        const doc = { id: randomUUID(), title: body.name, content: body.text, tags: [] }
        docs.set(doc.id, doc)
        return { status: 200, json: { document: documentOf(doc), batch: randomUUID() } }
      }
      case 'POST documents/:doc/update-by-text': {
        const doc = docs.get(docId)
        if (!doc) return notFound
        if (typeof body.name === 'string') doc.title = body.name
        if (typeof body.text === 'string') doc.content = body.text
        return { status: 200, json: { document: documentOf(doc), batch: randomUUID() } }
      }
      case 'DELETE documents/:doc':
        return docs.delete(docId) ? { status: 204 } : notFound
      default:
        return notFound
    }
  }

  const server = await startStandIn('/v1', handle, opts)
  const standIn = Object.assign(server, {
    apiKey,
    datasetId,
    docs,
    scoreScale: self.scoreScale,
    settings: (overrides: Partial<PrimarySettings> = {}): PrimarySettings => ({
      enabled: true,
      base_url: server.url,
      api_key: apiKey,
      dataset_id: datasetId,
      timeout_ms: 500,
      top_k: 5,
      score_threshold: 0,
      search_method: 'semantic_search',
      reranking_enable: false,
      ...overrides,
    }),
  })
  self = standIn
  return standIn
}

/**
 * The compatibility provider's API (WeKnora-style): `GET /api/v1/health`, `POST /api/v1/knowledge/search`,
 * `POST /api/v1/knowledge/:kb/documents`; `X-API-Key: <apiKey>` or 401 (`success: false`); another kb is 404.
 * With `refuseAll` set, every authorised call answers 200 `{success: false, message}`.
 */
export async function startCompatibilityStandIn(
  opts: StandInOptions & { docs?: StandInDoc[]; apiKey?: string; kbId?: string; scoreScale?: number } = {},
): Promise<KnowledgeStandIn<CompatibilitySettings> & { apiKey: string; kbId: string; refuseAll: boolean }> {
  const apiKey = opts.apiKey ?? 'compat-key'
  const kbId = opts.kbId ?? 'kb-1'
  const docs = hold(opts.docs ?? [])
  let self = { scoreScale: opts.scoreScale ?? 1, refuseAll: false }
  const refuse = (status: number, message: string): Reply => ({ status, json: { success: false, message } })

  function handle(req: StandInRequest): Reply {
    const [api, v1, area, kb, docsPath] = req.segments
    if (api !== 'api' || v1 !== 'v1') return refuse(404, 'not found')
    if (req.method === 'GET' && area === 'health' && !kb) return { status: 200, json: { status: 'ok' } }
    if (req.headers['x-api-key'] !== apiKey) return refuse(401, 'invalid api key')
    if (self.refuseAll) return refuse(200, 'stand-in refuses (success: false)')
    const body = obj(req.body)
    if (req.method === 'POST' && area === 'knowledge' && kb === 'search' && !docsPath) {
      if (body.kb_id !== kbId) return refuse(404, 'knowledge base not found')
      const hits = search(docs, String(body.query ?? ''), num(body.limit, 5), num(body.threshold, 0), self.scoreScale)
      const results = hits.map(({ doc, score }) => ({
        document_id: doc.id,
        title: doc.title,
        content: doc.content,
        score,
        highlights: words(String(body.query ?? '')).filter((w) => doc.content.toLocaleLowerCase().includes(w)),
        metadata: { tags: doc.tags },
        chunk_index: 0,
        source: 'stand-in',
      }))
      const data = { results, total: results.length, strategy: body.strategy, query_time_ms: 1 }
      return { status: 200, json: { success: true, data, message: 'ok', request_id: randomUUID(), duration_ms: 1 } }
    }
    if (req.method === 'POST' && area === 'knowledge' && docsPath === 'documents') {
      if (kb !== kbId) return refuse(404, 'knowledge base not found')
      if (typeof body.title !== 'string' || typeof body.content !== 'string') return refuse(400, 'title and content')
      const tags = Array.isArray(body.tags) ? body.tags.map(String) : []
      const doc = { id: randomUUID(), title: body.title, content: body.content, tags }
      docs.set(doc.id, doc)
      const data = { id: doc.id, title: doc.title, status: 'processing', chunk_count: 1, metadata: {} }
      return { status: 200, json: { success: true, data, message: 'created' } }
    }
    return refuse(404, 'not found')
  }

  const server = await startStandIn('', handle, opts)
  const standIn = Object.assign(server, {
    apiKey,
    kbId,
    docs,
    scoreScale: self.scoreScale,
    refuseAll: false,
    settings: (overrides: Partial<CompatibilitySettings> = {}): CompatibilitySettings => ({
      enabled: true,
      base_url: server.url,
      api_key: apiKey,
      tenant_id: '',
      knowledge_base_id: kbId,
      timeout_ms: 500,
      max_retries: 0,
      limit: 5,
      threshold: 0,
      strategy: 'hybrid',
      ...overrides,
    }),
  })
  self = standIn
  return standIn
}

export { startLlmStandIn } from './llm-stand-in.ts'
