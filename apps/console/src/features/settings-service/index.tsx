/**
 * The Service settings section of the admin area (a lazy chunk, `/admin/service`): the workspace's SLA configs,
 * its business hours, how new tickets are handled (auto-assignment) and the satisfaction surveys. Each control is
 * shown only to a holder of its API's permission (sla.write, tickets.settings, satisfaction.write); the API checks
 * again.
 */
import { useI18n } from '../../lib/i18n.tsx'
import { BusinessHoursSection } from './business-hours.tsx'
import { SlaConfigs } from './sla-configs.tsx'
import { Surveys } from './surveys.tsx'
import { TicketHandling } from './ticket-handling.tsx'
import './messages.ts'
import './service.css'

export function ServiceScreen(_props: { path: string }) {
  const { t } = useI18n()
  return (
    <div className="admin-page svc-screen">
      <h1>{t('svc.title')}</h1>
      <SlaConfigs />
      <BusinessHoursSection />
      <TicketHandling />
      <Surveys />
    </div>
  )
}
