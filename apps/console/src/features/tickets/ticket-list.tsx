/**
 * The tickets list: filters (status, priority, assignee, one custom field) over `GET /api/tickets`, one page of 50 at
 * a time, newest first. Filters live in component state; every combination is its own cache entry.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useAgentDirectory, useAgentNames } from '../../lib/agents.ts'
import { useAuth } from '../../lib/auth.tsx'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { listCustomFields, listTickets, PRIORITIES, STATUSES, type TicketFilters, ticketKeys } from './api.ts'
import './messages.ts'

const EMPTY: TicketFilters = { status: '', priority: '', agent_id: '', cfKey: '', cfValue: '', page: 1 }

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  options: [string, string][]
}) {
  return (
    <label>
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
}

export function TicketList() {
  const { t, formatTime } = useI18n()
  const { user } = useAuth()
  const [filters, setFilters] = useState(EMPTY)
  const set = (patch: Partial<TicketFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }))
  const tickets = useQuery({
    queryKey: ticketKeys.list(filters),
    queryFn: () => listTickets(filters),
    placeholderData: keepPreviousData,
  })
  // the option lists are optional: a caller who may not read them still filters by the rest
  const fields = useQuery({ queryKey: ['tickets', 'custom-fields'], queryFn: listCustomFields, retry: false })
  const agents = useAgentDirectory()
  const nameOf = useAgentNames()
  const any: [string, string] = ['', t('tickets.filter.any')]
  const agentOptions: [string, string][] = [any]
  if (user) agentOptions.push([user.id, t('tickets.filter.me')])
  for (const a of agents) if (a.user_id !== user?.id) agentOptions.push([a.user_id, a.name])
  const page = tickets.data

  return (
    <section aria-labelledby="tickets-title" className="tickets">
      <h1 id="tickets-title">{t('tickets.title')}</h1>
      <search aria-label={t('tickets.filters')} className="tickets-filters">
        <Select
          label={t('tickets.filter.status')}
          value={filters.status}
          onChange={(status) => set({ status })}
          options={[any, ...STATUSES.map((s): [string, string] => [s, t(`tickets.status.${s}`)])]}
        />
        <Select
          label={t('tickets.filter.priority')}
          value={filters.priority}
          onChange={(priority) => set({ priority })}
          options={[any, ...PRIORITIES.map((p): [string, string] => [p, t(`tickets.priority.${p}`)])]}
        />
        <Select
          label={t('tickets.filter.assignee')}
          value={filters.agent_id}
          onChange={(agent_id) => set({ agent_id })}
          options={agentOptions}
        />
        {(fields.data?.items.length ?? 0) > 0 && (
          <>
            <Select
              label={t('tickets.filter.field')}
              value={filters.cfKey}
              onChange={(cfKey) => set({ cfKey })}
              options={[any, ...(fields.data?.items ?? []).map((f): [string, string] => [f.key, f.name || f.key])]}
            />
            <label>
              <span>{t('tickets.filter.fieldValue')}</span>
              <input
                value={filters.cfValue}
                disabled={!filters.cfKey}
                onChange={(e) => set({ cfValue: e.target.value })}
              />
            </label>
          </>
        )}
      </search>
      <ErrorText error={tickets.error} />
      {tickets.isPending && <Loading label={t('tickets.loading')} />}
      {page && page.data.length === 0 && <EmptyState>{t('tickets.empty')}</EmptyState>}
      {page && page.data.length > 0 && (
        <>
          <table aria-label={t('tickets.list')}>
            <thead>
              <tr>
                <th scope="col">{t('tickets.col.title')}</th>
                <th scope="col">{t('tickets.col.status')}</th>
                <th scope="col">{t('tickets.col.priority')}</th>
                <th scope="col">{t('tickets.col.assignee')}</th>
                <th scope="col">{t('tickets.col.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((ticket) => (
                <tr key={ticket.id}>
                  <td>
                    <Link href={`/tickets/${encodeURIComponent(ticket.id)}`}>{ticket.title}</Link>
                  </td>
                  <td>{t(`tickets.status.${ticket.status}`)}</td>
                  <td>{t(`tickets.priority.${ticket.priority}`)}</td>
                  <td>{ticket.agent_id ? nameOf(ticket.agent_id) : t('tickets.unassigned')}</td>
                  <td>{formatTime(ticket.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label={t('tickets.pageOf', { page: page.page, pages: page.pages })} className="tickets-pager">
            <span>{t('tickets.total', { count: page.total })}</span>
            <button
              type="button"
              disabled={page.page <= 1}
              onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}
            >
              {t('tickets.prev')}
            </button>
            <span>{t('tickets.pageOf', { page: page.page, pages: page.pages })}</span>
            <button
              type="button"
              disabled={page.page >= page.pages}
              onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}
            >
              {t('tickets.next')}
            </button>
          </nav>
        </>
      )}
    </section>
  )
}
