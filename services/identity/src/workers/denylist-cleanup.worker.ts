import type { WorkerDef } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { deleteExpiredDenied } from '../db/denylist.repository.ts'

/** One pass: removes denylist records whose token has expired anyway; answers how many. */
export function cleanupDenylist(svc: IdentityService, now: Date = new Date()): Promise<number> {
  return deleteExpiredDenied(svc.db, now.toISOString())
}

/**
 * Expired denylist rows removed every DENYLIST_CLEANUP_INTERVAL_SECONDS. Deleting expired rows is idempotent,
 * so replicas running it concurrently do no harm: no lease needed.
 */
export const denylistCleanup: WorkerDef<IdentityService> = {
  name: 'denylist-cleanup',
  runs: 'every-replica',
  every: (svc) => svc.config.workers.denylist_cleanup_interval_seconds * 1000,
  run: (svc, { now }) => cleanupDenylist(svc, now),
}
