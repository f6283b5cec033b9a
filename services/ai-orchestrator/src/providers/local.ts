import type { ServiceContext } from '@switchboard/platform'
import type { AiConfig } from '../config.ts'
import type { AiDatabase } from '../db/database.ts'
import { searchDocs } from '../db/knowledge-search.ts'
import { type KnowledgeProvider, type Passage, ProviderError } from './port.ts'

/** The longest query searched (characters); the rest of a pasted essay adds nothing but cost. */
const MAX_QUERY_CHARS = 1000

/**
 * The local knowledge base: this service's own knowledge docs, full-text searched in the caller's scope (an empty
 * scope is the system's, '' / ''), always there as the last fallback. It is healthy whenever the service is (its
 * database is the service's); docs are written through `/api/knowledge-docs`, never through the provider port.
 */
export function createLocalProvider(svc: ServiceContext<AiConfig, AiDatabase>): KnowledgeProvider {
  return {
    id: 'local',
    async retrieve({ query, limit, scope }) {
      const hits = await searchDocs(svc.db, svc.dialect, scope, query.slice(0, MAX_QUERY_CHARS), limit)
      return hits.map(
        ({ doc, score }): Passage => ({
          document_id: doc.id,
          title: doc.title,
          content: doc.content,
          score,
          source: 'local',
          metadata: { category: doc.category, tags: doc.tags },
        }),
      )
    },
    async health() {
      return { healthy: true, latency_ms: 0 }
    },
    async upsertDocument() {
      throw new ProviderError('local', 'unsupported', 'local knowledge docs are written through /api/knowledge-docs')
    },
  }
}
