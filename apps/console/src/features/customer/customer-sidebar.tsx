/** Who the customer is (contact fields, notes), their other conversations and their tickets, beside a conversation. */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { customerKeys, getActivity, getCustomer } from './api.ts'
import { CustomerNotes } from './customer-notes.tsx'
import './customer.css'
import './messages.ts'

interface Props {
  /** the session's customer (a user id); null for an anonymous visitor */
  customerUserId: string | null
  /** the conversation on screen: not listed again under "previous" */
  currentSessionId: string
}

export function CustomerSidebar({ customerUserId, currentSessionId }: Props) {
  const { t, formatTime } = useI18n()
  const activity = useQuery({
    queryKey: customerKeys.activity(customerUserId ?? ''),
    queryFn: () => getActivity(customerUserId!),
    enabled: Boolean(customerUserId),
  })
  const customerId = activity.data?.customer_id
  const record = useQuery({
    queryKey: customerKeys.record(customerId ?? ''),
    queryFn: () => getCustomer(customerId!),
    enabled: Boolean(customerId),
  })

  if (!customerUserId) {
    return (
      <aside className="customer-sidebar" aria-label={t('customer.sidebar')}>
        <h2>{t('customer.sidebar')}</h2>
        <p>{t('customer.visitor')}</p>
      </aside>
    )
  }
  const c = record.data
  const fields: [string, string][] = c
    ? [
        ['customer.name', c.name],
        ['customer.email', c.email],
        ['customer.phone', c.phone],
        ['customer.company', c.company],
        ['customer.tags', c.tags.join(', ')],
      ]
    : []
  const previous = (activity.data?.recent_sessions ?? []).filter((s) => s.id !== currentSessionId)
  const tickets = activity.data?.recent_tickets ?? []
  return (
    <aside className="customer-sidebar" aria-label={t('customer.sidebar')}>
      <h2>{t('customer.sidebar')}</h2>
      {(activity.isLoading || record.isLoading) && <Loading label={t('customer.loading')} />}
      <ErrorText error={activity.error ?? record.error} />
      {c && (
        <dl className="contact">
          {fields.map(([key, value]) => (
            <div key={key}>
              <dt>{t(key)}</dt>
              <dd>{value || t('customer.none')}</dd>
            </div>
          ))}
        </dl>
      )}
      {c && <CustomerNotes customerId={c.id} profileNotes={c.notes} />}
      {activity.data && (
        <>
          <h3>{t('customer.conversations')}</h3>
          {previous.length === 0 ? (
            <p>{t('customer.noConversations')}</p>
          ) : (
            <ul>
              {previous.map((s) => (
                <li key={s.id}>
                  <Link href={`/conversations/${encodeURIComponent(s.id)}`}>
                    {t('customer.conversation', {
                      subject: s.subject || t('customer.untitled'),
                      status: s.status,
                      time: formatTime(s.started_at),
                    })}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <h3>{t('customer.tickets')}</h3>
          {tickets.length === 0 ? (
            <p>{t('customer.noTickets')}</p>
          ) : (
            <ul>
              {tickets.map((tk) => (
                <li key={tk.id}>
                  <Link href={`/tickets/${encodeURIComponent(tk.id)}`}>
                    {t('customer.ticket', { title: tk.title, status: tk.status })}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </aside>
  )
}
