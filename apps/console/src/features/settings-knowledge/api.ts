/** ai-orchestrator's knowledge docs and tickets' macros (their READMEs), through the gateway with the user's token. */
import { api, type Page } from '../../lib/http.ts'

export interface KnowledgeDoc {
  id: string
  title: string
  content: string
  category: string
  tags: string[]
  is_public: boolean
  provider_id: string | null
  external_id: string | null
  sync_error: string | null
  updated_at: string
  sync?: { provider: string | null; status: 'synced' | 'failed' | 'local_only'; error?: string }
}

export interface DocInput {
  title: string
  content: string
  category?: string
  is_public: boolean
}

/** What a list row says about the provider copy: the write's answer when there is one, else the stored fields. */
export function syncStatusOf(doc: KnowledgeDoc): 'synced' | 'failed' | 'local_only' {
  if (doc.sync) return doc.sync.status
  if (doc.sync_error) return 'failed'
  return doc.provider_id ? 'synced' : 'local_only'
}

export const keys = {
  docs: (page: number) => ['settings-knowledge', 'docs', page] as const,
  macros: (page: number) => ['settings-knowledge', 'macros', page] as const,
}

export const listDocs = (page: number, signal?: AbortSignal) =>
  api<Page<KnowledgeDoc>>('/api/knowledge-docs', { query: { page, page_size: 50 }, signal })
export const getDoc = (id: string, signal?: AbortSignal) =>
  api<KnowledgeDoc>(`/api/knowledge-docs/${encodeURIComponent(id)}`, { signal })
export const createDoc = (body: DocInput) => api<KnowledgeDoc>('/api/knowledge-docs', { method: 'POST', body })
export const updateDoc = (id: string, body: DocInput) =>
  api<KnowledgeDoc>(`/api/knowledge-docs/${encodeURIComponent(id)}`, { method: 'PUT', body })
export const deleteDoc = (id: string) =>
  api<unknown>(`/api/knowledge-docs/${encodeURIComponent(id)}`, { method: 'DELETE' })

export interface Macro {
  id: string
  name: string
  description: string
  language: string
  content: string
  active: boolean
}

export interface MacroInput {
  name: string
  description: string
  content: string
  active: boolean
}

export const listMacros = (page: number, signal?: AbortSignal) =>
  api<Page<Macro>>('/api/macros', { query: { page, page_size: 50 }, signal })
export const createMacro = (body: MacroInput) => api<Macro>('/api/macros', { method: 'POST', body })
export const updateMacro = (id: string, body: MacroInput) =>
  api<Macro>(`/api/macros/${encodeURIComponent(id)}`, { method: 'PUT', body })
export const deleteMacro = (id: string) => api<unknown>(`/api/macros/${encodeURIComponent(id)}`, { method: 'DELETE' })
