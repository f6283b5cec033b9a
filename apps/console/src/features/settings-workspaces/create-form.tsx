/** A new tenant or workspace: its id (a lower-case slug, as identity demands) and a name. */
import { type FormEvent, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'

export function CreateScopeForm({
  title,
  submit,
}: {
  title: string
  submit(body: { id: string; name?: string }): Promise<unknown>
}) {
  const { t } = useI18n()
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState('')
  const [busy, setBusy] = useState(false)
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const id = String(data.get('id') ?? '').trim()
    const name = String(data.get('name') ?? '').trim()
    setBusy(true)
    setError(null)
    setDone('')
    try {
      await submit(name ? { id, name } : { id })
      form.reset()
      setDone(t('ws.created', { id }))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form aria-label={title} onSubmit={onSubmit} className="admin-toolbar">
      <label>
        {t('ws.field.id')}
        <input
          name="id"
          required
          pattern="[a-z0-9][a-z0-9_\-]{1,62}"
          title={t('ws.field.id.hint')}
          autoComplete="off"
        />
      </label>
      <label>
        {t('ws.field.name')}
        <input name="name" maxLength={200} autoComplete="off" />
      </label>
      <button type="submit" disabled={busy}>
        {title}
      </button>
      {done && <span role="status">{done}</span>}
      {error !== null && <ErrorText error={error} />}
    </form>
  )
}
