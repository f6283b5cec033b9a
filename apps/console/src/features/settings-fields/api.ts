/** The tickets service's custom field definitions (services/tickets README "Custom fields"), through the gateway. */
import { api } from '../../lib/http.ts'
import type { CustomField } from '../tickets/api.ts'
import type { ShowWhen } from '../tickets/show-when.ts'

export type { CustomField }

export const FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'select', 'multiselect'] as const
export const hasOptions = (type: string) => type === 'select' || type === 'multiselect'

export interface FieldDraft {
  key: string
  name: string
  type: string
  required: boolean
  active: boolean
  options: string[]
  show_when: ShowWhen | null
}

export const fieldKeys = { all: ['settings-fields'] as const }

/** Every ticket field of the workspace, inactive ones too (the builder edits both). */
export const listFields = async () =>
  (await api<{ count: number; items: CustomField[] }>('/api/custom-fields', { query: { resource: 'ticket' } })).items

function body(d: FieldDraft) {
  return {
    ...(d.name.trim() ? { name: d.name.trim() } : {}),
    required: d.required,
    active: d.active,
    ...(hasOptions(d.type) ? { options: d.options } : {}),
    show_when: d.show_when,
  }
}

export const createField = (d: FieldDraft) =>
  api<CustomField>('/api/custom-fields', { method: 'POST', body: { key: d.key, type: d.type, ...body(d) } })

/** `key` and `type` are fixed once made (the service refuses them on update). */
export const updateField = (id: string, d: FieldDraft) =>
  api<CustomField>(`/api/custom-fields/${encodeURIComponent(id)}`, { method: 'PUT', body: body(d) })

export const deleteField = (id: string) =>
  api<{ id: string }>(`/api/custom-fields/${encodeURIComponent(id)}`, { method: 'DELETE' })
