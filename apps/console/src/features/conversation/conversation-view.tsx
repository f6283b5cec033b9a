/**
 * The page of one conversation (`/conversations/:id`): header (status, assignee, actions), the thread with live
 * messages and signals, the composer, and the customer sidebar beside them.
 */
import { useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { CustomerSidebar } from '../customer/index.ts'
import { Actions } from './actions.tsx'
import { keys, listAgents } from './api.ts'
import { Composer } from './composer.tsx'
import './conversation.css'
import './messages.ts'
import { Thread } from './thread.tsx'
import type { Message } from './types.ts'
import { useMessages } from './use-messages.ts'
import { useSession } from './use-session.ts'
import { useSignals } from './use-signals.ts'

export function ConversationView({ id }: { id: string }) {
  const { t } = useI18n()
  const { user } = useAuth()
  const session = useSession(id)
  // the assignee by name: the workspace's agents (the picker's list, one cache entry)
  const agents = useQuery({ queryKey: keys.agents, queryFn: listAgents })
  const agentName = (userId: string) => agents.data?.find((a) => a.user_id === userId)?.name ?? userId
  const thread = useMessages(id)
  const signals = useSignals(id)
  const { sendRead } = signals
  const onSeen = useCallback((m: Message) => m.sender === 'customer' && sendRead(m.id), [sendRead])

  if (session.isLoading) return <Loading label={t('conversation.loading')} />
  if (!session.data) return <ErrorText error={session.error} fallback={t('conversation.notFound')} />
  const s = session.data
  const lastCustomer = [...thread.messages].reverse().find((m) => m.sender === 'customer')
  const firstText = thread.messages.find((m) => m.sender === 'customer')?.content ?? ''
  return (
    <div className="conversation-page">
      <section className="conversation" aria-labelledby="conversation-heading">
        <header className="conversation-header">
          <h1 id="conversation-heading">{s.subject || t('conversation.title')}</h1>
          <p className="conversation-meta">
            <span>{t('conversation.status', { status: t(`conversation.status.${s.status}`) })}</span>
            <span>
              {s.agent_id
                ? t('conversation.assignee', {
                    name: s.agent_id === user?.id ? t('conversation.sender.you') : agentName(s.agent_id),
                  })
                : t('conversation.unassigned')}
            </span>
            {s.status === 'waiting_human' && s.queue_position ? (
              <span>{t('conversation.queue', { position: s.queue_position })}</span>
            ) : null}
          </p>
          <Actions session={s} me={user?.id} firstText={firstText} />
        </header>
        {thread.isLoading ? (
          <Loading label={t('conversation.loading')} />
        ) : (
          <Thread
            messages={thread.messages}
            me={user?.id}
            hasOlder={thread.hasOlder}
            loadingOlder={thread.loadingOlder}
            loadOlder={thread.loadOlder}
            readUpTo={signals.readUpTo}
            onSeen={onSeen}
          />
        )}
        <ErrorText error={thread.error} />
        <p className="typing" role="status" aria-live="polite">
          {signals.typing ? t(`conversation.typing.${signals.typing}`) : ''}
        </p>
        <Composer
          sessionId={id}
          closed={s.status === 'closed'}
          lastCustomerText={lastCustomer?.content ?? ''}
          onPosted={thread.add}
          sendTyping={signals.sendTyping}
        />
      </section>
      <CustomerSidebar customerUserId={s.customer_id} currentSessionId={s.id} />
    </div>
  )
}
