import type { WorkerDef } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { compactTicketCounts } from '../db/ticket-counts.repository.ts'

export const COUNT_COMPACTION_WORKER = 'tickets-count-compaction'

/**
 * Folds the deltas that ticket writes append to `ticket_counts` (PostgreSQL; migration 0023) into one row per key,
 * so a list's total sums a handful of rows. One replica at a time; two folds at once would still be correct.
 */
export const countCompactionWorker: WorkerDef<TicketsService> = {
  name: COUNT_COMPACTION_WORKER,
  every: (svc) => svc.config.count_compaction_interval_ms,
  enabled: (svc) => svc.dialect === 'postgres',
  runs: 'one-replica',
  run: (svc) => compactTicketCounts(svc.db),
}
