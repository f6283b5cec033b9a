/**
 * The ticket form's custom fields: one labelled control per field whose `show_when` holds for the ticket and the
 * values as they stand — the agent's ticket form and the admin's live preview (settings-fields) both render this, so
 * the preview is the real form. A field that stops showing keeps no say: it is not rendered and not sent.
 */
import { useId } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import type { CustomField } from './api.ts'
import { conditionHolds, type TicketContext } from './show-when.ts'
import './custom-fields.css'
import './messages.ts'

export type FieldValues = Record<string, unknown>

/** The fields that show for this ticket and these values, in the order given. */
export function visibleFields(fields: readonly CustomField[], ticket: TicketContext, values: FieldValues) {
  return fields.filter((f) => f.active !== false && conditionHolds(f.show_when, ticket, values))
}

const labelOf = (f: CustomField) => f.name || f.key

function Control({ field, value, onChange }: { field: CustomField; value: unknown; onChange(v: unknown): void }) {
  const { t } = useI18n()
  const id = useId()
  const required = field.required === true
  const label = (
    <label htmlFor={id}>
      {labelOf(field)}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  )
  switch (field.type) {
    case 'boolean':
      return (
        <div className="cf-control cf-check">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked ? true : undefined)}
          />
          {label}
        </div>
      )
    case 'select':
      return (
        <div className="cf-control">
          {label}
          <select
            id={id}
            required={required}
            value={value === undefined ? '' : String(value)}
            onChange={(e) => onChange(e.target.value || undefined)}
          >
            <option value="">{t('tickets.form.choose')}</option>
            {(field.options ?? []).map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
      )
    case 'multiselect': {
      const chosen = Array.isArray(value) ? (value as string[]) : []
      return (
        <fieldset className="cf-control">
          <legend>
            {labelOf(field)}
            {required && <span aria-hidden="true"> *</span>}
          </legend>
          {(field.options ?? []).map((o) => (
            <label key={o} className="cf-check">
              <input
                type="checkbox"
                checked={chosen.includes(o)}
                onChange={(e) => {
                  const next = e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o)
                  onChange(next.length ? next : undefined)
                }}
              />
              {o}
            </label>
          ))}
        </fieldset>
      )
    }
    default: {
      const type = field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'
      return (
        <div className="cf-control">
          {label}
          <input
            id={id}
            type={type}
            required={required}
            value={value === undefined || value === null ? '' : String(value)}
            onChange={(e) => {
              const raw = e.target.value
              if (raw === '') onChange(undefined)
              else onChange(type === 'number' ? Number(raw) : raw)
            }}
          />
        </div>
      )
    }
  }
}

export function CustomFieldInputs({
  fields,
  ticket,
  values,
  onChange,
}: {
  fields: readonly CustomField[]
  ticket: TicketContext
  values: FieldValues
  onChange(key: string, value: unknown): void
}) {
  const { t } = useI18n()
  const shown = visibleFields(fields, ticket, values)
  if (shown.length === 0) return <p>{t('tickets.form.noFields')}</p>
  return (
    <div className="cf-inputs">
      {shown.map((f) => (
        <Control key={f.key} field={f} value={values[f.key]} onChange={(v) => onChange(f.key, v)} />
      ))}
    </div>
  )
}
