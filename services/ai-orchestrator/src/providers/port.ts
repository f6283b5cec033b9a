import type { Scope } from '@switchboard/platform'

/**
 * The one retrieval abstraction of the orchestrator (spec: the knowledge provider). Adapters — the primary
 * (Dify-style) and compatibility (WeKnora-style) HTTP providers and the local knowledge base — implement it; the
 * orchestrator and the routes never know which one they talk to beyond its id.
 */
export type ProviderId = 'primary' | 'compatibility' | 'local'
export const EXTERNAL_PROVIDERS = ['primary', 'compatibility'] as const satisfies readonly ProviderId[]
export type ExternalProviderId = (typeof EXTERNAL_PROVIDERS)[number]

/** One retrieved passage, as every adapter answers it. */
export interface Passage {
  document_id: string
  title: string
  content: string
  /** 0..1, higher is better (each adapter maps its provider's score into this range) */
  score: number
  source: ProviderId
  highlights?: string[]
  metadata?: Record<string, unknown>
  chunk_index?: number
}

export interface RetrieveRequest {
  query: string
  limit: number
  /** the caller's scope: the local knowledge base searches only it; external providers map it by configuration */
  scope: Scope
}

export interface ProviderHealth {
  healthy: boolean
  latency_ms: number
  error?: string
}

export interface DocumentInput {
  title: string
  content: string
  tags: string[]
  /** the provider's id of an earlier version of this document, when it has one */
  external_id?: string | null
}

/** Why a provider call failed: a timeout (→ 504 when asked directly), anything else (→ 502), or not usable (→ 503). */
export type ProviderErrorKind = 'timeout' | 'http' | 'invalid' | 'connection' | 'unavailable' | 'unsupported'

export class ProviderError extends Error {
  override name = 'ProviderError'
  readonly provider: ProviderId
  readonly kind: ProviderErrorKind
  readonly status: number | undefined
  constructor(provider: ProviderId, kind: ProviderErrorKind, message: string, status?: number) {
    super(message)
    this.provider = provider
    this.kind = kind
    this.status = status
  }
}

export interface KnowledgeProvider {
  readonly id: ProviderId
  /** ranked passages for the query; throws ProviderError */
  retrieve(req: RetrieveRequest): Promise<Passage[]>
  /** the provider's health probe (primary: GET /datasets/:id; compatibility: GET /api/v1/health) */
  health(): Promise<ProviderHealth>
  /** creates or replaces a document in the provider; throws ProviderError */
  upsertDocument(doc: DocumentInput): Promise<{ external_id: string }>
  /** removes a document; absent when the provider cannot (compatibility) */
  deleteDocument?(external_id: string): Promise<void>
}
