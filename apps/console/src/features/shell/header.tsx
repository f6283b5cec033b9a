/** The shell's header: who is signed in, the connection, theme toggle, language switch, log out. */
import type { ReactNode } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import { LOCALES, type Locale, useI18n } from '../../lib/i18n.tsx'
import { useTheme } from '../../lib/theme.ts'
import { ConnectionStatus } from './connection-status.tsx'
import './messages.ts'

const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' }

/** `children`: controls the shell composes from other features (presence, notifications). */
export function Header({ children }: { children?: ReactNode }) {
  const { t, locale, setLocale } = useI18n()
  const { user, logout } = useAuth()
  const { theme, toggle } = useTheme()
  return (
    <header className="shell-header">
      <p className="brand">{t('shell.brand')}</p>
      <ConnectionStatus />
      <span className="spacer" />
      {user && <span>{t('shell.signedInAs', { name: user.name || user.username })}</span>}
      {user?.tenant_id && (
        <span>{t('shell.workspace', { workspace: `${user.tenant_id} / ${user.workspace_id ?? '*'}` })}</span>
      )}
      {children}
      <button type="button" onClick={toggle} aria-pressed={theme === 'dark'}>
        {t('shell.theme.toDark')}
      </button>
      <label>
        <span className="visually-hidden">{t('shell.language')}</span>
        <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
          {LOCALES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => void logout()}>
        {t('shell.logout')}
      </button>
    </header>
  )
}
