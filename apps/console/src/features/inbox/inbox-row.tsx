/** One conversation in the list: subject, status, channel, last activity, unread count, queue position. */
import { memo } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import type { InboxItem } from './api.ts'
import './messages.ts'

interface Props {
  row: InboxItem
  selected: boolean
  top: number
  height: number
  index: number
  setSize: number
  onOpen(id: string): void
}

export const InboxRow = memo(function InboxRow({ row, selected, top, height, index, setSize, onOpen }: Props) {
  const { t, formatTime } = useI18n()
  const unread = row.unread_count
  const waiting = row.queue_position !== null && row.queue_position !== undefined
  const minutes = Math.ceil((row.estimated_wait_seconds ?? 0) / 60)
  return (
    <div
      id={`inbox-row-${row.id}`}
      role="option"
      aria-selected={selected}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      className="inbox-row"
      style={{ transform: `translateY(${top}px)`, height }}
      // focus stays on the listbox (aria-activedescendant); a click or Enter on a row opens it
      tabIndex={-1}
      onClick={() => onOpen(row.id)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onOpen(row.id)
      }}
    >
      <span className="subject">{row.subject || t('inbox.noSubject', { id: row.id.slice(-6) })}</span>
      {unread > 0 ? (
        <span className="badge" role="img" aria-label={t('inbox.unread', { count: unread })}>
          {unread}
        </span>
      ) : (
        <span />
      )}
      {row.last_message && <span className="preview">{row.last_message.preview}</span>}
      <span className="meta">
        {row.customer_name ? `${row.customer_name} · ` : ''}
        {t(`inbox.status.${row.status}`)} · {row.channel} · {formatTime(row.last_activity_at)}
        {waiting && (
          <>
            {' · '}
            {t('inbox.position', { position: row.queue_position! })} ·{' '}
            {minutes > 0 ? t('inbox.wait', { minutes }) : t('inbox.waitSoon')}
          </>
        )}
      </span>
    </div>
  )
})
