/**
 * The messages in a `log` region ("Messages"): the greeting, the conversation in seq order, the visitor's messages
 * still on their way ("Sending…"), the AI's answer while it is written, and "Seen" under the visitor's last message
 * an agent has read. Keeps to the bottom while the reader is there.
 */
import { useLayoutEffect, useRef } from 'preact/hooks'
import { type T, useI18n } from '../../lib/i18n.ts'
import type { ChatMessage } from '../../lib/messages.ts'
import { useChat } from '../../lib/use-chat.ts'
import { lazy } from '../../ui/lazy.tsx'

const Attachment = lazy(() => import('../attachments/attachment.tsx').then((m) => m.Attachment))

function Who({ sender, t }: { sender: ChatMessage['sender']; t: T }) {
  if (sender === 'customer') return <span class="sr-only">{t('sender.you')}: </span>
  if (sender === 'system') return <span class="sr-only">{t('sender.system')}: </span>
  return (
    <span class="who">
      {t(sender === 'ai' ? 'sender.ai' : 'sender.agent')}
      {sender === 'ai' && <span class="badge">{t('sender.aiBadge')}</span>}
    </span>
  )
}

export function MessageLog({ greeting }: { greeting: string }) {
  const { t, locale } = useI18n()
  const [state] = useChat()
  const box = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' })

  useLayoutEffect(() => {
    const el = box.current
    if (el && atBottom.current) el.scrollTop = el.scrollHeight
  })

  let lastOwnSeen = -1
  for (const m of state.messages) if (m.sender === 'customer' && m.seq <= state.seenSeq) lastOwnSeen = m.seq

  return (
    <div
      class="log"
      ref={box}
      role="log"
      aria-label={t('log.label')}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe)
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40
      }}
    >
      <ol>
        <li class="msg them">
          <p class="text">{greeting}</p>
        </li>
        {state.messages.map((m) => (
          <li key={m.id} class={`msg ${m.sender === 'customer' ? 'me' : m.sender === 'system' ? 'sys' : 'them'}`}>
            <Who sender={m.sender} t={t} />
            {typeof m.metadata.upload_id === 'string' ? <Attachment message={m} /> : <p class="text">{m.content}</p>}
            <span class="meta">
              <time dateTime={m.created_at}>{time.format(new Date(m.created_at))}</time>
              {m.seq === lastOwnSeen && <span> · {t('message.seen')}</span>}
            </span>
          </li>
        ))}
        {state.pending.map((p) => (
          <li key={p.client_id} class="msg me pending">
            <Who sender="customer" t={t} />
            <p class="text">{p.content}</p>
            <span class="meta">{t('message.sending')}</span>
          </li>
        ))}
        {state.aiDraft && (
          <li class="msg them" aria-busy="true">
            <Who sender="ai" t={t} />
            <p class="text">{state.aiDraft}</p>
          </li>
        )}
      </ol>
    </div>
  )
}
