/**
 * One field's editor (new or saved) beside the live preview of the ticket form: key and type (fixed once made),
 * name, options for the select types, required, active, and the condition. Saving creates or updates it; the
 * service's refusal is shown in its words (it names the part at fault).
 */
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'
import {
  type CustomField,
  createField,
  FIELD_TYPES,
  type FieldDraft,
  fieldKeys,
  hasOptions,
  updateField,
} from './api.ts'
import { ConditionEditor } from './condition-editor.tsx'
import { type ConditionDraft, fromShowWhen, toShowWhen } from './conditions.ts'
import { FormPreview } from './preview.tsx'
import './messages.ts'

const PREVIEW_KEY = 'new_field'

export function FieldEditor({
  field,
  all,
  onDone,
}: {
  field: CustomField | null
  all: readonly CustomField[]
  onDone(saved: CustomField | null): void
}) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [key, setKey] = useState(field?.key ?? '')
  const [name, setName] = useState(field?.name ?? '')
  const [type, setType] = useState(field?.type ?? 'string')
  const [options, setOptions] = useState((field?.options ?? []).join(', '))
  const [required, setRequired] = useState(field?.required ?? false)
  const [active, setActive] = useState(field?.active ?? true)
  const [cond, setCond] = useState<ConditionDraft>(() => fromShowWhen(field?.show_when))
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)

  const others = all.filter((f) => f.id !== field?.id)
  const draft: FieldDraft = {
    key,
    name,
    type,
    required,
    active,
    options: options
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    show_when: toShowWhen(cond),
  }
  const asField: CustomField = { id: field?.id ?? 'draft', ...draft, key: key || PREVIEW_KEY, name: name || key }
  // the form as agents would see it: the saved fields in their order, this one in its place (a new one last)
  const previewFields = field ? all.map((f) => (f.id === field.id ? asField : f)) : [...all, asField]
  const title = field ? t('fields.edit.title', { key: field.key }) : t('fields.new')

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const saved = field ? await updateField(field.id, draft) : await createField(draft)
      await client.invalidateQueries({ queryKey: fieldKeys.all })
      await client.invalidateQueries({ queryKey: ['tickets', 'custom-fields'] })
      onDone(saved)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="fields-workbench">
      <form aria-label={title} className="fields-editor admin-card" onSubmit={submit}>
        <h2>{title}</h2>
        <label>
          {t('fields.key')}
          <input
            value={key}
            required
            pattern="[a-z][a-z0-9_]*"
            readOnly={field !== null}
            aria-describedby="fields-key-hint"
            onChange={(e) => setKey(e.target.value)}
          />
        </label>
        <p id="fields-key-hint" className="fields-hint">
          {t('fields.key.hint')}
        </p>
        <label>
          {t('fields.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('fields.type')}
          <select value={type} disabled={field !== null} onChange={(e) => setType(e.target.value)}>
            {FIELD_TYPES.map((ft) => (
              <option key={ft} value={ft}>
                {t(`fields.type.${ft}`)}
              </option>
            ))}
          </select>
        </label>
        {hasOptions(type) && (
          <label>
            {t('fields.options')}
            <input value={options} required onChange={(e) => setOptions(e.target.value)} />
          </label>
        )}
        <label className="fields-check">
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />
          {t('fields.required')}
        </label>
        <label className="fields-check">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
          {t('fields.active')}
        </label>
        <ConditionEditor value={cond} onChange={setCond} others={others} />
        <div className="fields-buttons">
          <button type="submit" disabled={busy}>
            {t('fields.save')}
          </button>
          <button type="button" onClick={() => onDone(null)}>
            {t('fields.cancel')}
          </button>
        </div>
        <ErrorText error={error} />
      </form>
      <FormPreview fields={previewFields} />
    </div>
  )
}
