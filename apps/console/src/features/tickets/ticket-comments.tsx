/** A ticket's comments (oldest first) and the box to add one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAgentNames } from '../../lib/agents.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { addComment, listComments, ticketKeys } from './api.ts'
import './messages.ts'

export function TicketComments({ id }: { id: string }) {
  const { t, formatTime } = useI18n()
  const client = useQueryClient()
  const nameOf = useAgentNames()
  const [text, setText] = useState('')
  const comments = useQuery({ queryKey: ticketKeys.comments(id), queryFn: () => listComments(id) })
  const add = useMutation({
    mutationFn: (content: string) => addComment(id, content),
    onSuccess: () => {
      setText('')
      void client.invalidateQueries({ queryKey: ticketKeys.comments(id) })
      // an answer may settle a first-response violation
      void client.invalidateQueries({ queryKey: ticketKeys.violations(id) })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const content = text.trim()
    if (content) add.mutate(content)
  }
  return (
    <section aria-labelledby="ticket-comments" className="ticket-comments">
      <h2 id="ticket-comments">{t('tickets.comments')}</h2>
      {comments.isPending && <Loading label={t('tickets.loading')} />}
      <ErrorText error={comments.error} />
      {comments.data && comments.data.data.length === 0 && <p>{t('tickets.comments.none')}</p>}
      {comments.data && comments.data.data.length > 0 && (
        <ol aria-label={t('tickets.comments')}>
          {comments.data.data.map((c) => (
            <li key={c.id}>
              <p className="comment-meta">
                {t(c.author_id && c.type !== 'system' ? 'tickets.comment.metaBy' : 'tickets.comment.meta', {
                  type: t(`tickets.comment.type.${c.type}`),
                  author: c.author_id ? nameOf(c.author_id) : '',
                  time: formatTime(c.created_at),
                })}
              </p>
              <p>{c.content}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit}>
        <label>
          <span>{t('tickets.comment')}</span>
          <textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} />
        </label>
        <button type="submit" disabled={add.isPending || !text.trim()}>
          {t('tickets.comment.add')}
        </button>
        <ErrorText error={add.error} />
      </form>
    </section>
  )
}
