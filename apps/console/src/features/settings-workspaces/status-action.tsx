/**
 * Disable / enable of a tenant or workspace, disabling confirmed in place (it refuses every token of the scope at
 * once), enabling at once. Shared by the tenants and the workspaces tables.
 */
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'

export function StatusAction({
  name,
  status,
  onChange,
}: {
  name: string
  status: 'active' | 'disabled'
  onChange(to: 'enable' | 'disable'): void
}) {
  const { t } = useI18n()
  const [confirming, setConfirming] = useState(false)
  if (status === 'disabled') {
    return (
      <button type="button" onClick={() => onChange('enable')}>
        {t('ws.enable', { name })}
      </button>
    )
  }
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)}>
        {t('ws.disable', { name })}
      </button>
    )
  }
  return (
    <span className="ws-confirm">
      <span>{t('ws.disable.confirm', { name })}</span>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setConfirming(false)
          onChange('disable')
        }}
      >
        {t('ws.disable.yes', { name })}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        {t('ws.cancel')}
      </button>
    </span>
  )
}
