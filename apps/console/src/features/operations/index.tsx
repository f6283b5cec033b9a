/** The operations section of the admin area (a lazy chunk): the system's health per unit and the dead letters. */
import { useI18n } from '../../lib/i18n.tsx'
import { DeadLettersPanel } from './dead-letters.tsx'
import { SystemHealthPanel } from './health.tsx'
import './messages.ts'

export function OperationsScreen(_: { path: string }) {
  const { t } = useI18n()
  return (
    <div className="admin-page">
      <h1>{t('ops.title')}</h1>
      <SystemHealthPanel />
      <DeadLettersPanel />
    </div>
  )
}
