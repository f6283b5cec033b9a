/**
 * The waiting visitor's place in the queue for a human and the estimated wait, as the hub's
 * `waiting_notification` frames update it; and who is typing. Both are status regions (read out when they change).
 */
import { useI18n } from '../../lib/i18n.ts'
import { useChat } from '../../lib/use-chat.ts'

export function QueueStatus() {
  const { t } = useI18n()
  const [state] = useChat()
  const { queue } = state
  const waiting = queue || state.status === 'waiting_human'
  return (
    <>
      {waiting && (
        <p class="queue" role="status" aria-label={t('queue.label')}>
          {queue ? (
            <>
              {t('queue.position', { position: queue.position })}{' '}
              {queue.wait === null
                ? ''
                : queue.wait < 60
                  ? t('queue.soon')
                  : t('queue.wait', { minutes: Math.round(queue.wait / 60) })}
            </>
          ) : (
            t('queue.waiting')
          )}
        </p>
      )}
      <p class="typing" role="status">
        {state.agentTyping ? t('typing.agent') : state.aiDraft ? t('typing.ai') : ''}
      </p>
    </>
  )
}
