/**
 * The command palette (Ctrl/Cmd+K): a search box "Command" (a combobox) over a listbox of commands; arrows move,
 * Enter runs the active one, Escape closes. Focus stays in the box (aria-activedescendant).
 */
import { useQueryClient } from '@tanstack/react-query'
import { useId, useMemo, useRef, useState } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import { LOCALES, useI18n } from '../../lib/i18n.tsx'
import { useTheme } from '../../lib/theme.ts'
import { type Command, cachedConversations, conversationCommand, matches, viewCommands } from './commands.ts'
import { Modal } from './modal.tsx'
import './messages.ts'
import './palette.css'

const LANGUAGE_NAMES = { en: 'English', 'zh-CN': '简体中文' } as const
// conversations are listed only once something is typed, and only so many
const MAX_CONVERSATIONS = 8

export function Palette({ onClose }: { onClose(): void }) {
  const { t, locale, setLocale } = useI18n()
  const { logout } = useAuth()
  const { toggle } = useTheme()
  const client = useQueryClient()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const listId = useId()

  const commands = useMemo(() => {
    const other = LOCALES.find((l) => l !== locale) ?? 'en'
    const fixed: Command[] = [
      ...viewCommands(t, client.getQueryData(['inbox-may-see-all']) === true),
      { id: 'theme', label: t('palette.theme'), run: toggle },
      {
        id: 'language',
        label: t('palette.language', { language: LANGUAGE_NAMES[other] }),
        run: () => setLocale(other),
      },
      { id: 'logout', label: t('palette.logout'), run: () => void logout() },
    ]
    const q = query.trim()
    const found = fixed.filter((c) => matches(c.label, q))
    if (q) {
      const conversations = cachedConversations(client)
        .filter((c) => matches(c.name, q))
        .slice(0, MAX_CONVERSATIONS)
        .map((c) => conversationCommand(t, c.id, c.name))
      found.push(...conversations)
    }
    return found
  }, [query, t, locale, setLocale, toggle, logout, client])

  const current = Math.min(active, commands.length - 1)
  const optionId = (i: number) => `${listId}-${i}`

  function run(command: Command | undefined) {
    if (!command) return
    onClose()
    command.run()
  }

  return (
    <Modal label={t('palette.title')} onClose={onClose} initialFocus={input}>
      <input
        ref={input}
        className="palette-input"
        type="search"
        role="combobox"
        aria-label={t('palette.input')}
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          setActive(0)
        }}
        onKeyDown={(e) => {
          if (e.nativeEvent.isComposing) return
          if (e.key === 'ArrowDown') setActive((i) => Math.min(commands.length - 1, i + 1))
          else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1))
          else if (e.key === 'Enter') run(commands[current])
          else return
          e.preventDefault()
        }}
      />
      <div id={listId} role="listbox" aria-label={t('palette.list')} className="palette-list">
        {commands.map((command, i) => (
          <div
            key={command.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            tabIndex={-1}
            onClick={() => run(command)}
            onKeyDown={(e) => e.key === 'Enter' && run(command)}
            onMouseMove={() => setActive(i)}
          >
            {command.label}
          </div>
        ))}
      </div>
      {commands.length === 0 && <p role="status">{t('palette.none')}</p>}
    </Modal>
  )
}
