/**
 * The conversation's actions, each one call to the API: assign or transfer (an agent picker), pick up from the
 * queue (assigned to oneself), close, reopen, and continue in a ticket linked to the conversation. The answer is
 * the session as it now is; it replaces the cached one (the hub's frames confirm it to everyone else).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { ErrorText } from '../../ui/status.tsx'
import { AgentPicker } from './agent-picker.tsx'
import { assign, closeSession, createTicket, keys, reopenSession, transfer } from './api.ts'
import type { Session } from './types.ts'

type Picking = 'assign' | 'transfer' | null

export function Actions({ session, me, firstText }: { session: Session; me: string | undefined; firstText: string }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [picking, setPicking] = useState<Picking>(null)
  const settle = (next: Session) => {
    client.setQueryData(keys.session(session.id), next)
    // the inbox's rows show status and assignee: let them catch up
    void client.invalidateQueries({ queryKey: ['inbox'] })
  }

  const act = useMutation({
    mutationFn: (run: () => Promise<Session>) => run(),
    onSuccess: (next) => {
      settle(next)
      setPicking(null)
    },
  })
  const ticket = useMutation({
    mutationFn: () => createTicket(session, session.subject || firstText.slice(0, 120) || t('conversation.title')),
    // the customer's sidebar lists their tickets
    onSuccess: () => client.invalidateQueries({ queryKey: ['customer'] }),
  })

  const open = session.status !== 'closed'
  const waiting = session.status === 'waiting_human'
  const ticketId = session.ticket_id ?? ticket.data?.id ?? null
  return (
    <section className="conversation-actions" aria-label={t('conversation.actions')}>
      <div className="action-row">
        {open && (waiting || !session.agent_id) && me && session.agent_id !== me && (
          <button type="button" className="primary" onClick={() => act.mutate(() => assign(session.id, me))}>
            {t('conversation.pickUp')}
          </button>
        )}
        {open && !session.agent_id && (
          <button type="button" onClick={() => setPicking('assign')}>
            {t('conversation.assign')}
          </button>
        )}
        {open && session.agent_id && (
          <button type="button" onClick={() => setPicking('transfer')}>
            {t('conversation.transfer')}
          </button>
        )}
        {open ? (
          <button type="button" onClick={() => act.mutate(() => closeSession(session.id))}>
            {t('conversation.close')}
          </button>
        ) : (
          <button type="button" onClick={() => act.mutate(() => reopenSession(session.id))}>
            {t('conversation.reopen')}
          </button>
        )}
        {ticketId ? (
          <Link href={`/tickets/${encodeURIComponent(ticketId)}`}>
            {t('conversation.ticket.linked', { id: ticketId })}
          </Link>
        ) : (
          session.customer_id && (
            <button type="button" onClick={() => ticket.mutate()} disabled={ticket.isPending}>
              {t('conversation.ticket')}
            </button>
          )
        )}
      </div>
      <ErrorText error={picking ? null : (act.error ?? ticket.error)} />
      {picking && (
        <AgentPicker
          title={t(picking === 'assign' ? 'conversation.picker.assign' : 'conversation.picker.transfer')}
          exclude={session.agent_id}
          busy={act.isPending}
          error={act.error}
          onCancel={() => {
            act.reset()
            setPicking(null)
          }}
          onPick={(agent) =>
            act.mutate(() => (picking === 'assign' ? assign(session.id, agent) : transfer(session.id, agent)))
          }
        />
      )}
    </section>
  )
}
