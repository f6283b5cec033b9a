/**
 * The fields the Configuration screen edits in the high-risk sections (services/config-governance README
 * "Governance": endpoints, keys, knowledge mapping, session-risk thresholds), with the input each one needs. Paths are
 * under the section; labels are message keys (messages.ts).
 */
export type FieldKind = 'text' | 'url' | 'number' | 'secret' | 'boolean' | 'choice'

export interface FieldDef {
  path: string
  kind: FieldKind
  options?: readonly string[]
}

export type SectionKey = 'llm' | 'knowledge_provider' | 'session_risk'

export const SECTIONS: readonly { key: SectionKey; fields: readonly FieldDef[] }[] = [
  {
    key: 'llm',
    fields: [
      { path: 'base_url', kind: 'url' },
      { path: 'api_key', kind: 'secret' },
      { path: 'model', kind: 'text' },
      { path: 'timeout_ms', kind: 'number' },
      { path: 'max_tokens', kind: 'number' },
    ],
  },
  {
    key: 'knowledge_provider',
    fields: [
      { path: 'preferred', kind: 'choice', options: ['primary', 'compatibility'] },
      { path: 'primary.enabled', kind: 'boolean' },
      { path: 'primary.base_url', kind: 'url' },
      { path: 'primary.api_key', kind: 'secret' },
      { path: 'primary.dataset_id', kind: 'text' },
      { path: 'primary.timeout_ms', kind: 'number' },
    ],
  },
  {
    key: 'session_risk',
    fields: [
      { path: 'medium_risk_score', kind: 'number' },
      { path: 'high_risk_score', kind: 'number' },
      { path: 'hot_refresh_window_minutes', kind: 'number' },
      { path: 'many_sessions_threshold', kind: 'number' },
    ],
  },
]

/** An edited input as the document holds it: '' removes the field's override; numbers and switches typed. */
export function fieldValue(field: FieldDef, raw: string | boolean): unknown {
  if (field.kind === 'boolean') return raw === true
  if (raw === '') return undefined
  return field.kind === 'number' ? Number(raw) : raw
}
