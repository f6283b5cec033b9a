/** The pre-chat form the workspace asks for (`widget.prechat`: name, or name and e-mail) before the first message. */
import { useState } from 'preact/hooks'
import { useI18n } from '../../lib/i18n.ts'
import type { Visitor } from '../../lib/storage.ts'

export function PrechatForm({ email, onDone }: { email: boolean; onDone(v: Visitor): void }) {
  const { t } = useI18n()
  const [name, setName] = useState('')
  const [mail, setMail] = useState('')
  return (
    <form
      class="body form"
      onSubmit={(e) => {
        e.preventDefault()
        if (!name.trim()) return
        onDone(email ? { name: name.trim(), email: mail.trim() } : { name: name.trim() })
      }}
    >
      <h2>{t('prechat.title')}</h2>
      <label for="prechat-name">{t('prechat.name')}</label>
      <input
        id="prechat-name"
        required
        autoComplete="name"
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      {email && (
        <>
          <label for="prechat-email">{t('prechat.email')}</label>
          <input
            id="prechat-email"
            type="email"
            required
            autoComplete="email"
            value={mail}
            onInput={(e) => setMail(e.currentTarget.value)}
          />
        </>
      )}
      <button type="submit" class="primary">
        {t('prechat.start')}
      </button>
    </form>
  )
}
