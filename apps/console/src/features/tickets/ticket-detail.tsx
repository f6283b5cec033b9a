/**
 * One ticket (`/tickets/:id`): its fields and custom field values, the status moves the service allows from where it
 * is (others are never offered; a refusal is shown in the API's words), the SLA state and the comments.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useAgentNames } from '../../lib/agents.ts'
import { useAuth } from '../../lib/auth.tsx'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { assignTicket, closeTicket, getTicket, setStatus, type Ticket, TRANSITIONS, ticketKeys } from './api.ts'
import { TicketComments } from './ticket-comments.tsx'
import { TicketFieldsForm } from './ticket-fields-form.tsx'
import { TicketSla } from './ticket-sla.tsx'
import './messages.ts'

function show(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ')
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

function StatusActions({ ticket }: { ticket: Ticket }) {
  const { t } = useI18n()
  const { user } = useAuth()
  const client = useQueryClient()
  const change = useMutation({
    mutationFn: (action: () => Promise<Ticket>) => action(),
    onSuccess: (next) => {
      client.setQueryData(ticketKeys.one(next.id), next)
      // the lists and the comments (a close adds a system comment) are stale now
      void client.invalidateQueries({ queryKey: ['tickets'] })
    },
  })
  const moves = TRANSITIONS[ticket.status] ?? []
  const canClose = ticket.status !== 'closed'
  return (
    <section aria-labelledby="ticket-status" className="ticket-status">
      <h2 id="ticket-status">{t('tickets.transitions')}</h2>
      <p>{t(`tickets.status.${ticket.status}`)}</p>
      <div className="ticket-actions">
        {ticket.status === 'open' && user && (
          <button
            type="button"
            disabled={change.isPending}
            onClick={() => change.mutate(() => assignTicket(ticket.id, user.id))}
          >
            {t('tickets.assignToMe')}
          </button>
        )}
        {moves.map((to) => (
          <button
            key={to}
            type="button"
            disabled={change.isPending}
            onClick={() => change.mutate(() => setStatus(ticket.id, to))}
          >
            {t('tickets.transitions.to', { status: t(`tickets.status.${to}`) })}
          </button>
        ))}
        {canClose && (
          <button type="button" disabled={change.isPending} onClick={() => change.mutate(() => closeTicket(ticket.id))}>
            {t('tickets.close')}
          </button>
        )}
        {!canClose && <p>{t('tickets.transitions.none')}</p>}
      </div>
      <ErrorText error={change.error} />
    </section>
  )
}

export function TicketDetail({ id }: { id: string }) {
  const { t, formatTime } = useI18n()
  const nameOf = useAgentNames()
  const [titleId] = useState(() => `ticket-${id}`)
  const ticket = useQuery({ queryKey: ticketKeys.one(id), queryFn: () => getTicket(id) })
  const data = ticket.data
  const fields = Object.entries(data?.custom_fields ?? {})
  return (
    <article aria-labelledby={titleId} className="ticket-detail">
      <Link href="/tickets">{t('tickets.back')}</Link>
      {ticket.isPending && <Loading label={t('tickets.detail.loading')} />}
      <ErrorText error={ticket.error} />
      {data && (
        <>
          <h1 id={titleId}>{data.title}</h1>
          {data.description && <p className="ticket-description">{data.description}</p>}
          <section aria-labelledby="ticket-fields">
            <h2 id="ticket-fields">{t('tickets.detail.fields')}</h2>
            <dl>
              <dt>{t('tickets.col.priority')}</dt>
              <dd>{t(`tickets.priority.${data.priority}`)}</dd>
              <dt>{t('tickets.detail.category')}</dt>
              <dd>{data.category}</dd>
              <dt>{t('tickets.col.assignee')}</dt>
              <dd>{data.agent_id ? nameOf(data.agent_id) : t('tickets.unassigned')}</dd>
              <dt>{t('tickets.detail.tags')}</dt>
              <dd>{data.tags.length ? data.tags.join(', ') : t('tickets.detail.none')}</dd>
              <dt>{t('tickets.detail.created')}</dt>
              <dd>{formatTime(data.created_at)}</dd>
            </dl>
          </section>
          <section aria-labelledby="ticket-custom-fields">
            <h2 id="ticket-custom-fields">{t('tickets.customFields')}</h2>
            {fields.length === 0 ? (
              <p>{t('tickets.customFields.none')}</p>
            ) : (
              <dl>
                {fields.map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd>{show(value)}</dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
          <TicketFieldsForm ticket={data} />
          <StatusActions ticket={data} />
          <TicketSla ticket={data} />
          <TicketComments id={data.id} />
        </>
      )}
    </article>
  )
}
