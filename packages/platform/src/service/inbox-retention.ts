import { pruneInbox } from '@switchboard/events'
import type { Kysely } from 'kysely'
import type { WorkerDef } from './workers.ts'

export const INBOX_RETENTION_WORKER = 'inbox-retention'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/**
 * Every service with consumers gets this worker from its descriptor (build.ts): inbox rows older than
 * `inbox_retention_days` are deleted in batches, hourly, by one replica. The inbox only has to outlive redeliveries
 * (seconds to minutes) and the dead-letter replays an operator may still run; a replay older than the retention
 * would apply its event again, so keep it above the longest a dead letter waits for its replay.
 */
export function inboxRetentionWorker<
  S extends { db: Kysely<any>; config: { inbox_retention_days: number } },
>(): WorkerDef<S> {
  return {
    name: INBOX_RETENTION_WORKER,
    every: () => HOUR_MS,
    runs: 'one-replica',
    run: (svc, { now, signal }) =>
      pruneInbox(svc.db, new Date(now.getTime() - svc.config.inbox_retention_days * DAY_MS), { signal }),
  }
}
