/** The hub's state in words: "Reconnecting…" while down, "Reconnected" for a few seconds after it comes back. */
import { useEffect, useRef, useState } from 'react'
import { useHubState } from '../../lib/hub-hooks.ts'
import { useI18n } from '../../lib/i18n.tsx'
import './messages.ts'

export function ConnectionStatus() {
  const { t } = useI18n()
  const state = useHubState()
  const previous = useRef(state)
  const [reconnected, setReconnected] = useState(false)
  useEffect(() => {
    const was = previous.current
    previous.current = state
    if (state === 'online' && was === 'reconnecting') {
      setReconnected(true)
      const timer = setTimeout(() => setReconnected(false), 4000)
      return () => clearTimeout(timer)
    }
    setReconnected(false)
    return undefined
  }, [state])
  const label = reconnected ? t('shell.connection.reconnected') : t(`shell.connection.${state}`)
  return (
    <output className="connection" data-state={state} aria-live="polite" aria-label={t('shell.connection.label')}>
      <span className="connection-dot" aria-hidden="true" />
      <span className="connection-text">{label}</span>
    </output>
  )
}
