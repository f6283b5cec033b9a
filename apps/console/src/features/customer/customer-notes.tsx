/**
 * The customer's notes: the record's own `notes` text, the dated notes staff left (identity's
 * `GET /api/customers/:id/notes`, newest first, with their authors' names) and a box to add one
 * (`POST …/notes`) for those who hold `customers.write` — administrators by default; agents read the notes and see no
 * box (the API would refuse them; a refusal for any other reason is shown in its words).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useAgentNames } from '../../lib/agents.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { addNote, customerKeys, listNotes } from './api.ts'
import './messages.ts'

export function CustomerNotes({ customerId, profileNotes }: { customerId: string; profileNotes: string }) {
  const { t, formatTime } = useI18n()
  const nameOf = useAgentNames()
  const mayWrite = useAccess().has('customers.write')
  const client = useQueryClient()
  const [text, setText] = useState('')
  const notes = useQuery({ queryKey: customerKeys.notes(customerId), queryFn: () => listNotes(customerId) })
  const add = useMutation({
    mutationFn: (content: string) => addNote(customerId, content),
    onSuccess: (note) => {
      setText('')
      client.setQueryData<{ count: number; items: (typeof note)[] }>(customerKeys.notes(customerId), (old) =>
        old ? { count: old.count + 1, items: [note, ...old.items.filter((n) => n.id !== note.id)] } : old,
      )
      void client.invalidateQueries({ queryKey: customerKeys.notes(customerId) })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const content = text.trim()
    if (content) add.mutate(content)
  }
  const items = notes.data?.items ?? []
  return (
    <section aria-labelledby="customer-notes" className="customer-notes">
      <h3 id="customer-notes">{t('customer.notes')}</h3>
      {profileNotes && <p className="customer-profile-notes">{profileNotes}</p>}
      {notes.isPending && <Loading label={t('customer.notes.loading')} />}
      <ErrorText error={notes.error} />
      {notes.data && items.length === 0 && !profileNotes && <p>{t('customer.notes.none')}</p>}
      {items.length > 0 && (
        <ol aria-label={t('customer.notes.list')}>
          {items.map((note) => (
            <li key={note.id}>
              <p className="customer-note-meta">
                {t('customer.notes.meta', { author: nameOf(note.author_user_id), time: formatTime(note.created_at) })}
              </p>
              <p className="customer-note-text">{note.content}</p>
            </li>
          ))}
        </ol>
      )}
      {mayWrite && (
        <form onSubmit={submit}>
          <label>
            <span>{t('customer.notes.new')}</span>
            <textarea value={text} maxLength={10_000} rows={2} onChange={(e) => setText(e.target.value)} />
          </label>
          <button type="submit" disabled={add.isPending || !text.trim()}>
            {t('customer.notes.add')}
          </button>
          <ErrorText error={add.error} />
        </form>
      )}
    </section>
  )
}
