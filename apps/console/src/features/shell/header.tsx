/**
 * The shell's header, one line at 1280 px: the brand and the connection on the left; on the right the controls the
 * shell composes from other features (presence, notifications), the theme toggle, the language, who is signed in
 * (in which workspace) and log out. Below 1200 px (styles.css) the toggles, the user and log out turn into icons;
 * every control keeps its accessible name (the visible words stay in the accessibility tree).
 */
import type { ReactNode } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import { LOCALES, type Locale, useI18n } from '../../lib/i18n.tsx'
import { useTheme } from '../../lib/theme.ts'
import { Icon } from '../../ui/icon.tsx'
import { ConnectionStatus } from './connection-status.tsx'
import './messages.ts'

const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' }

/** Up to two initials of a display name ("Demo Agent" → "DA", "张伟" → "张"). */
function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words
  return letters.map((w) => Array.from(w)[0]!.toUpperCase()).join('') || '?'
}

/** `children`: controls the shell composes from other features (presence, notifications). */
export function Header({ children }: { children?: ReactNode }) {
  const { t, locale, setLocale } = useI18n()
  const { user, logout } = useAuth()
  const { theme, toggle } = useTheme()
  const name = user ? user.name || user.username : ''
  const scope = user?.tenant_id ? `${user.tenant_id} / ${user.workspace_id ?? '*'}` : null
  return (
    <header className="shell-header">
      <div className="shell-brand">
        <span className="brand-mark" aria-hidden="true" />
        <p className="brand">{t('shell.brand')}</p>
      </div>
      <ConnectionStatus />
      <span className="spacer" />
      <div className="header-tools">
        {children}
        <span className="header-divider" aria-hidden="true" />
        <button
          type="button"
          className="icon-button"
          onClick={toggle}
          aria-pressed={theme === 'dark'}
          title={t('shell.theme.toDark')}
        >
          <Icon name="moon" />
          <span className="visually-hidden">{t('shell.theme.toDark')}</span>
        </button>
        <label className="header-language" title={t('shell.language')}>
          <Icon name="globe" />
          <span className="visually-hidden">{t('shell.language')}</span>
          <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
            {LOCALES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {user && (
        <div className="header-user" title={scope ? `${name} · ${scope}` : name}>
          <span className="avatar" aria-hidden="true">
            {initials(name)}
          </span>
          <span className="header-user-text">
            <span className="header-user-name">
              <span className="visually-hidden">{t('shell.user.signedInAs')} </span>
              {name}
            </span>
            {scope && (
              <span className="header-user-scope">
                <span className="visually-hidden">{t('shell.user.workspace')} </span>
                {scope}
              </span>
            )}
          </span>
        </div>
      )}
      <button type="button" className="icon-button header-logout" onClick={() => void logout()}>
        <Icon name="logout" />
        <span className="button-label">{t('shell.logout')}</span>
      </button>
    </header>
  )
}
