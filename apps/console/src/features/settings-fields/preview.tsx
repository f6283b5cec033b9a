/**
 * The live preview: the agent's ticket form (tickets' CustomFieldInputs, the very component the ticket page uses)
 * with the field being edited in place of its saved self, on a sample ticket whose category, priority and source
 * the admin sets here. Fields appear and disappear as the sample's values meet their conditions.
 */
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { PRIORITIES } from '../tickets/api.ts'
import { CustomFieldInputs, type FieldValues } from '../tickets/custom-field-inputs.tsx'
import type { TicketContext } from '../tickets/show-when.ts'
import type { CustomField } from './api.ts'
import './messages.ts'

export function FormPreview({ fields }: { fields: readonly CustomField[] }) {
  const { t } = useI18n()
  const [ticket, setTicket] = useState<TicketContext>({
    category: 'general',
    priority: 'normal',
    source: 'web',
    status: 'open',
  })
  const [values, setValues] = useState<FieldValues>({})
  const set = (k: keyof TicketContext) => (e: { target: { value: string } }) =>
    setTicket((prev) => ({ ...prev, [k]: e.target.value }))
  return (
    <section aria-labelledby="fields-preview" className="fields-preview admin-card">
      <h2 id="fields-preview">{t('fields.preview')}</h2>
      <p className="fields-hint">{t('fields.preview.hint')}</p>
      <fieldset className="fields-sample">
        <legend>{t('fields.preview.ticket')}</legend>
        <label>
          {t('fields.preview.category')}
          <input value={ticket.category} onChange={set('category')} />
        </label>
        <label>
          {t('fields.preview.priority')}
          <select value={ticket.priority} onChange={set('priority')}>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {t(`tickets.priority.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('fields.preview.source')}
          <input value={ticket.source} onChange={set('source')} />
        </label>
      </fieldset>
      <form aria-label={t('fields.preview.form')} onSubmit={(e) => e.preventDefault()}>
        <CustomFieldInputs
          fields={fields}
          ticket={ticket}
          values={values}
          onChange={(key, value) => setValues((prev) => ({ ...prev, [key]: value }))}
        />
      </form>
    </section>
  )
}
