/** One message of the thread: who wrote it (the AI's marked as such), its text or attachment, a note set apart. */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { fetchUpload } from './api.ts'
import { isNote, type Message } from './types.ts'

interface AttachmentMeta {
  upload_id?: string
  url?: string
  filename?: string
  content_type?: string
}

function Attachment({ meta }: { meta: AttachmentMeta }) {
  const { t } = useI18n()
  const name = meta.filename ?? 'file'
  // the bytes need the bearer token, so they come as an object URL (cached per upload)
  const blob = useQuery({
    queryKey: ['upload', meta.url],
    queryFn: () => fetchUpload(meta.url!),
    enabled: Boolean(meta.url),
    staleTime: Number.POSITIVE_INFINITY,
  })
  const isImage = meta.content_type?.startsWith('image/')
  if (!blob.data) return <span className="attachment">{t('conversation.attachment', { name })}</span>
  return (
    <span className="attachment">
      {isImage && <img src={blob.data} alt={t('conversation.attachment', { name })} />}
      <a href={blob.data} download={name}>
        {t('conversation.attachment.open', { name })}
      </a>
    </span>
  )
}

export function MessageItem({ message, mine, seen }: { message: Message; mine: boolean; seen: boolean }) {
  const { t, formatTime } = useI18n()
  const who = mine ? t('conversation.sender.you') : t(`conversation.sender.${message.sender}`)
  const meta = (message.metadata ?? {}) as AttachmentMeta
  const className = [
    'message',
    `message-${message.sender}`,
    isNote(message) ? 'message-note' : '',
    mine ? 'message-mine' : '',
  ].join(' ')
  return (
    <li className={className} data-message-id={message.id}>
      <div className="message-head">
        <span className="message-who">{who}</span>
        {message.sender === 'ai' && <span className="badge badge-ai">AI</span>}
        {isNote(message) && <span className="badge badge-note">{t('conversation.note')}</span>}
        <time dateTime={message.created_at}>{formatTime(message.created_at)}</time>
      </div>
      {(message.kind === 'image' || message.kind === 'file') && meta.url ? (
        <Attachment meta={meta} />
      ) : (
        <p className="message-text">{message.content}</p>
      )}
      {seen && <p className="message-seen">{t('conversation.seen')}</p>}
    </li>
  )
}
