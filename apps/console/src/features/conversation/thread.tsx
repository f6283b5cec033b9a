/**
 * The thread: the reader's place is kept. Older pages are put above without moving what is on screen (the height
 * they add is added to scrollTop); a new message scrolls into view only when the reader is at the bottom, else a
 * "New messages" button appears and brings them there.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { MessageItem } from './message-item.tsx'
import type { Message } from './types.ts'

/** Within this many pixels of the end counts as "at the bottom" (sub-pixel rounding, a margin). */
const BOTTOM_SLACK_PX = 48

interface Props {
  messages: Message[]
  me: string | undefined
  hasOlder: boolean
  loadingOlder: boolean
  loadOlder(): void
  readUpTo: string | null
  /** the reader saw the newest message (at the bottom): tell the customer it was read */
  onSeen(message: Message): void
}

export function Thread({ messages, me, hasOlder, loadingOlder, loadOlder, readUpTo, onSeen }: Props) {
  const { t } = useI18n()
  const box = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const [unseen, setUnseen] = useState(false)
  // what the previous render showed: its first and last ids and its height
  const before = useRef<{ first?: string; last?: string; height: number }>({ height: 0 })

  const toBottom = useCallback(() => {
    const el = box.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    atBottom.current = true
    setUnseen(false)
  }, [])

  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    const first = messages[0]?.id
    const last = messages.at(-1)?.id
    const prev = before.current
    if (prev.first === undefined) {
      if (last) toBottom() // the first page: start at the newest
    } else if (first !== prev.first && last === prev.last) {
      el.scrollTop += el.scrollHeight - prev.height // older ones above: keep the view where it was
    } else if (last !== prev.last) {
      if (atBottom.current) toBottom()
      else setUnseen(true)
    }
    before.current = { first, last, height: el.scrollHeight }
  }, [messages, toBottom])

  const newest = messages.at(-1)
  useEffect(() => {
    if (newest && !unseen && atBottom.current && newest.sender !== 'agent') onSeen(newest)
  }, [newest, unseen, onSeen])

  const onScroll = () => {
    const el = box.current
    if (!el) return
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX
    if (atBottom.current && unseen) setUnseen(false)
    if (el.scrollTop === 0 && hasOlder && !loadingOlder) loadOlder()
  }

  return (
    <div className="thread-wrap">
      <div
        className="thread"
        ref={box}
        onScroll={onScroll}
        role="log"
        aria-label={t('conversation.thread')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
        tabIndex={0}
      >
        {hasOlder ? (
          <button type="button" className="load-older" onClick={loadOlder} disabled={loadingOlder}>
            {loadingOlder ? t('conversation.loadingOlder') : t('conversation.loadOlder')}
          </button>
        ) : (
          <p className="thread-start">{t('conversation.start')}</p>
        )}
        <ol className="messages">
          {messages.map((m) => (
            <MessageItem
              key={m.id}
              message={m}
              mine={m.sender === 'agent' && m.sender_id === me}
              seen={m.id === readUpTo}
            />
          ))}
        </ol>
      </div>
      {unseen && (
        <button type="button" className="new-messages primary" onClick={toBottom}>
          {t('conversation.newMessages')}
        </button>
      )}
    </div>
  )
}
