/**
 * The reply box: "Send" posts a reply, "Internal note" a staff-only note; a file is uploaded (`/uploads`) and posted
 * as an image or file message pointing at it. Typing tells the customer (a `typing` signal, repeated while it lasts).
 */
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'
import { postMessage, uploadFile } from './api.ts'
import { Suggestions } from './suggestions.tsx'
import type { Message } from './types.ts'

interface Props {
  sessionId: string
  closed: boolean
  /** what the customer said last: the question suggestions answer */
  lastCustomerText: string
  onPosted(message: Message): void
  sendTyping(state: 'start' | 'stop'): void
}

export function Composer({ sessionId, closed, lastCustomerText, onPosted, sendTyping }: Props) {
  const { t } = useI18n()
  const [text, setText] = useState('')
  const fileId = useId()

  const post = useMutation({
    mutationFn: (v: { internal: boolean; content: string }) =>
      postMessage(sessionId, v.internal ? { content: v.content, internal: true } : { content: v.content }),
    onSuccess: (message) => {
      onPosted(message)
      setText('')
    },
  })

  const attach = useMutation({
    mutationFn: async (file: File) => {
      const up = await uploadFile(sessionId, file)
      const kind = up.content_type.startsWith('image/') ? 'image' : 'file'
      const metadata = {
        upload_id: up.id,
        url: up.url,
        filename: up.filename,
        content_type: up.content_type,
        size: up.size,
      }
      return postMessage(sessionId, { content: up.filename, kind, metadata })
    },
    onSuccess: onPosted,
  })

  const submit = (internal: boolean) => (event?: FormEvent) => {
    event?.preventDefault()
    const content = text.trim()
    if (!content || post.isPending) return
    if (!internal) sendTyping('stop')
    post.mutate({ internal, content })
  }

  return (
    <form className="composer" onSubmit={submit(false)}>
      {!closed && (
        <Suggestions
          sessionId={sessionId}
          query={lastCustomerText}
          onPick={(s) => setText((v) => (v ? `${v} ${s}` : s))}
        />
      )}
      {closed && <p className="placeholder">{t('conversation.closedComposer')}</p>}
      <label className="composer-label">
        <span>{t('conversation.composer')}</span>
        <textarea
          value={text}
          rows={3}
          onChange={(e) => {
            setText(e.target.value)
            if (!closed) sendTyping(e.target.value ? 'start' : 'stop')
          }}
          onBlur={() => text && sendTyping('stop')}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter breaks the line; Ctrl/Cmd+Enter posts a note
            if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return
            e.preventDefault()
            submit(e.ctrlKey || e.metaKey)()
          }}
        />
      </label>
      <div className="composer-actions">
        <button type="submit" className="primary" disabled={closed || post.isPending || !text.trim()}>
          {t('conversation.send')}
        </button>
        <button type="button" className="note-button" onClick={submit(true)} disabled={post.isPending || !text.trim()}>
          {t('conversation.sendNote')}
        </button>
        <label className="attach" htmlFor={fileId}>
          {attach.isPending && attach.variables
            ? t('conversation.uploading', { name: attach.variables.name })
            : t('conversation.attach')}
        </label>
        <input
          id={fileId}
          type="file"
          className="visually-hidden"
          disabled={closed || attach.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) attach.mutate(file)
          }}
        />
      </div>
      <ErrorText error={post.error ?? attach.error} />
    </form>
  )
}
