/**
 * A ticket's SLA state: the due times of the config that measures its priority (from its creation, by the wall
 * clock; business hours can only push them later) and its recorded violations. Both need `sla.read`: a caller
 * without it sees the API's refusal in words, the rest of the ticket still works.
 */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { getSlaConfig, listViolations, type Ticket, ticketKeys } from './api.ts'
import './messages.ts'

const MINUTE = 60_000

export function TicketSla({ ticket }: { ticket: Ticket }) {
  const { t, formatTime } = useI18n()
  const config = useQuery({
    queryKey: ticketKeys.slaConfig(ticket.priority),
    queryFn: () => getSlaConfig(ticket.priority),
    retry: false,
  })
  const violations = useQuery({
    queryKey: ticketKeys.violations(ticket.id),
    queryFn: () => listViolations(ticket.id),
    retry: false,
  })
  const created = Date.parse(ticket.created_at)
  const settled = ticket.resolved_at ?? ticket.closed_at
  const due = (minutes: number, met: boolean) => {
    const at = new Date(created + minutes * MINUTE).toISOString()
    return !met && Date.parse(at) < Date.now() ? t('tickets.sla.overdue', { time: formatTime(at) }) : formatTime(at)
  }
  const c = config.data
  return (
    <section aria-labelledby="ticket-sla" className="ticket-sla">
      <h2 id="ticket-sla">{t('tickets.sla')}</h2>
      {config.isPending && <Loading label={t('tickets.sla.loading')} />}
      <ErrorText error={config.error} />
      {c === null && <p>{t('tickets.sla.noConfig')}</p>}
      {c && (
        <>
          <p>{t('tickets.sla.config', { name: c.name })}</p>
          <dl>
            <dt>{t('tickets.sla.firstResponseDue')}</dt>
            {/* whether the first response came in time is told by the violations below */}
            <dd>{due(c.first_response_time, true)}</dd>
            <dt>{t('tickets.sla.resolutionDue')}</dt>
            <dd>{due(c.resolution_time, Boolean(settled))}</dd>
          </dl>
          {c.business_hours_only && <p>{t('tickets.sla.businessHours')}</p>}
        </>
      )}
      <h3>{t('tickets.sla.violations')}</h3>
      <ErrorText error={violations.error} />
      {violations.data && violations.data.data.length === 0 && <p>{t('tickets.sla.noViolations')}</p>}
      {violations.data && violations.data.data.length > 0 && (
        <ul>
          {violations.data.data.map((v) => (
            <li key={v.id}>
              {t(v.resolved ? 'tickets.sla.violation.resolved' : 'tickets.sla.violation', {
                type: t(`tickets.sla.${v.violation_type}`),
                deadline: formatTime(v.deadline),
                at: formatTime(v.violated_at),
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
