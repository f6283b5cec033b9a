/**
 * The agent's ticket form for custom fields: the workspace's active fields that show for this ticket (its
 * category, priority, source, status and the values as edited), saved with one PUT. A field appears or disappears
 * while the agent edits, as its `show_when` starts or stops holding; the service checks the same rule again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'
import { listCustomFields, setCustomFields, type Ticket, ticketKeys } from './api.ts'
import { CustomFieldInputs, type FieldValues, visibleFields } from './custom-field-inputs.tsx'
import './messages.ts'

export function TicketFieldsForm({ ticket }: { ticket: Ticket }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const fields = useQuery({ queryKey: ['tickets', 'custom-fields'], queryFn: listCustomFields })
  const [values, setValues] = useState<FieldValues>(() => ({ ...ticket.custom_fields }))
  const context = {
    category: ticket.category,
    priority: ticket.priority,
    source: ticket.source ?? '',
    status: ticket.status,
  }
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => setCustomFields(ticket.id, body),
    onSuccess: (next) => {
      client.setQueryData(ticketKeys.one(next.id), next)
      void client.invalidateQueries({ queryKey: ['tickets', 'list'] })
    },
  })
  const defs = fields.data?.items ?? []
  if (defs.length === 0) return null
  const shown = visibleFields(defs, context, values).length > 0
  function submit(e: FormEvent) {
    e.preventDefault()
    const body: Record<string, unknown> = {}
    // only what shows is sent; a value cleared in the form is removed (null)
    for (const f of visibleFields(defs, context, values)) {
      const v = values[f.key]
      if (v !== undefined) body[f.key] = v
      else if (ticket.custom_fields[f.key] !== undefined) body[f.key] = null
    }
    save.mutate(body)
  }
  return (
    <form aria-label={t('tickets.form')} className="ticket-fields-form" onSubmit={submit}>
      <h2>{t('tickets.form')}</h2>
      <CustomFieldInputs
        fields={defs}
        ticket={context}
        values={values}
        onChange={(key, value) => setValues((prev) => ({ ...prev, [key]: value }))}
      />
      {shown && (
        <button type="submit" disabled={save.isPending}>
          {t('tickets.form.save')}
        </button>
      )}
      {save.isSuccess && <p role="status">{t('tickets.form.saved')}</p>}
      <ErrorText error={save.error} />
    </form>
  )
}
