import type { WorkerDef } from '@switchboard/platform'
import { slaPass } from '../commands/sla-monitor.ts'
import type { TicketsService } from '../context.ts'

export const SLA_MONITOR_WORKER = 'tickets-sla-monitor'

/**
 * Detects SLA breaches as time passes, whether or not anyone calls the API (services/tickets/README.md, SLA).
 * One replica at a time holds the lease, so passes do not duplicate work; should two ever overlap (a lease
 * handed over mid-pass), the unique key on sla_violations still records each breach once.
 */
export const slaMonitorWorker: WorkerDef<TicketsService> = {
  name: SLA_MONITOR_WORKER,
  every: (svc) => svc.config.sla_monitor_interval_ms,
  enabled: (svc) => svc.config.sla_monitor_enabled,
  runs: 'one-replica',
  immediately: true,
  run: (svc, { now, signal }) => slaPass(svc, now, signal),
}
