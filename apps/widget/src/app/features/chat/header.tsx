/** The widget's title bar: the workspace's logo and name, and — inside a host page — the close button. */
import { useState } from 'preact/hooks'
import type { Portal } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { LoaderLink } from '../../lib/parent.ts'
import { useChat } from '../../lib/use-chat.ts'

export function Header({ portal, link }: { portal: Portal | null; link: LoaderLink }) {
  const { t } = useI18n()
  const [, store] = useChat()
  const [logoFailed, setLogoFailed] = useState(false)
  const name = portal?.brand_name ?? ''
  return (
    <header class="header">
      {portal?.logo_url && !logoFailed && (
        <img class="logo" src={portal.logo_url} alt={t('header.logo', { name })} onError={() => setLogoFailed(true)} />
      )}
      <h1>{portal ? t('header.title', { name }) : '\u00a0'}</h1>
      {link.embedded && (
        <button
          type="button"
          class="icon"
          aria-label={t('header.close')}
          onClick={() => {
            // the loader does not echo a close it was told of: the frame counts unread from now on
            store.setOpen(false)
            link.post({ type: 'switchboard:close' })
          }}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
          </svg>
        </button>
      )}
    </header>
  )
}
