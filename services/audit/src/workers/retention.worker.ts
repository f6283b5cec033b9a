import type { WorkerDef } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { deleteBatchBefore } from '../db/audit-logs.repository.ts'
import { retentionCutoff } from '../domain/retention.ts'

export const AUDIT_RETENTION_WORKER = 'audit-retention'

/**
 * The audit cleanup (services/audit/README.md, Retention): deletes what is past retention at `now`, batch by
 * batch, and counts it. Every replica may run it at once: each batch deletes what is still there, so they only
 * share the work, and no lease is needed. It runs at start, then every interval; on close it stops after the
 * batch in progress.
 */
export const retentionWorker: WorkerDef<AuditService> = {
  name: AUDIT_RETENTION_WORKER,
  every: (svc) => svc.config.retention_interval_ms,
  enabled: (svc) => svc.config.retention_enabled,
  runs: 'every-replica',
  immediately: true,
  async run(svc, { now, signal }) {
    const { retention_days: days, retention_batch_size: batch } = svc.config
    const cutoff = retentionCutoff(now, days)
    let total = 0
    for (;;) {
      const deleted = await deleteBatchBefore(svc.db, cutoff, batch)
      total += deleted
      // a short batch means nothing is left; an abort (the app closing) leaves the rest to the next run
      if (deleted < batch || signal.aborted) break
    }
    return total
  },
}
