/**
 * The conversation: the messages (a log region), the connection, queue and typing states (status regions), the
 * "Talk to a human" button while no agent has it, the CSAT form once it is closed (lazy), and the composer.
 */
import { hasString, useI18n } from '../../lib/i18n.ts'
import type { Visitor } from '../../lib/storage.ts'
import { useChat } from '../../lib/use-chat.ts'
import { lazy } from '../../ui/lazy.tsx'
import { Composer } from './composer.tsx'
import { MessageLog } from './message-log.tsx'
import { QueueStatus } from './queue-status.tsx'

const Csat = lazy(() => import('../csat/csat-form.tsx').then((m) => m.CsatForm))

interface Props {
  greeting: string | null
  visitor: Visitor | null
  connect(): void
}

export function ChatView({ greeting, visitor, connect }: Props) {
  const { t } = useI18n()
  const [state, store] = useChat()
  const closed = state.status === 'closed'
  const canAskHuman =
    state.sessionId !== null && !closed && !state.agentId && state.status !== 'waiting_human' && !state.queue

  return (
    <div class="body chat">
      {state.conn !== 'online' && state.sessionId && (
        <p class="banner" role="status">
          {t(state.conn === 'reconnecting' ? 'conn.reconnecting' : 'conn.connecting')}
        </p>
      )}
      {state.error && (
        <div class="banner error" role="alert">
          <span>
            {hasString(`error.${state.error}`) ? t(`error.${state.error}`) : t('error.generic', { code: state.error })}
          </span>
          <button type="button" class="link" onClick={() => store.dismissError()}>
            {t('error.dismiss')}
          </button>
        </div>
      )}
      <MessageLog greeting={greeting ?? t('greeting.default')} />
      <div class="below">
        <QueueStatus />
        {closed && <p class="notice">{t('closed.notice')}</p>}
        {closed && (!state.rated || state.thanked) && state.sessionId && <Csat sessionId={state.sessionId} />}
        {canAskHuman && (
          <button type="button" class="secondary" onClick={() => store.talkToHuman()}>
            {t('human.button')}
          </button>
        )}
      </div>
      <Composer visitor={visitor} connect={connect} />
    </div>
  )
}
