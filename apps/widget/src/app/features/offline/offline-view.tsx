/**
 * Nobody online (`/public/widget/availability`) and no conversation yet: the workspace's offline message and a
 * "leave a message" form that becomes a ticket (`POST /public/widget/tickets`); or chat with the assistant anyway.
 */
import { useState } from 'preact/hooks'
import { ApiError, leaveMessage } from '../../lib/api.ts'
import { hasString, useI18n } from '../../lib/i18n.ts'
import type { FrameParams } from '../../lib/params.ts'
import type { Visitor } from '../../lib/storage.ts'

interface Props {
  params: FrameParams
  visitor: Visitor | null
  message: string | null
  onChat(): void
}

export function OfflineView({ params, visitor, message, onChat }: Props) {
  const { t } = useI18n()
  const [name, setName] = useState(visitor?.name ?? '')
  const [email, setEmail] = useState(visitor?.email ?? '')
  const [content, setContent] = useState('')
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | { error: string }>('idle')

  const submit = async (e: Event) => {
    e.preventDefault()
    setState('sending')
    try {
      await leaveMessage({
        tenant_id: params.tenantId,
        workspace_id: params.workspaceId,
        ...(name.trim() ? { name: name.trim() } : {}),
        email: email.trim(),
        content: content.trim(),
      })
      setState('sent')
    } catch (err) {
      setState({ error: err instanceof ApiError ? err.code : 'NETWORK' })
    }
  }

  return (
    <div class="body form">
      <h2>{t('offline.title')}</h2>
      <p>{message ?? t('offline.default')}</p>
      {state === 'sent' ? (
        <p class="notice" role="status">
          {t('offline.sent')}
        </p>
      ) : (
        <form onSubmit={submit} aria-label={t('offline.leave')}>
          <h3>{t('offline.leave')}</h3>
          <label for="offline-name">{t('prechat.name')}</label>
          <input id="offline-name" autoComplete="name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="offline-email">{t('prechat.email')}</label>
          <input
            id="offline-email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <label for="offline-message">{t('offline.message')}</label>
          <textarea
            id="offline-message"
            required
            rows={4}
            value={content}
            onInput={(e) => setContent(e.currentTarget.value)}
          />
          {typeof state === 'object' && (
            <p class="upload-error" role="alert">
              {hasString(`error.${state.error}`)
                ? t(`error.${state.error}`)
                : state.error === 'NETWORK'
                  ? t('error.network')
                  : t('error.generic', { code: state.error })}
            </p>
          )}
          <button type="submit" class="primary" disabled={state === 'sending'}>
            {t('offline.send')}
          </button>
        </form>
      )}
      <button type="button" class="link" onClick={onChat}>
        {t('offline.chat')}
      </button>
    </div>
  )
}
