import type { WorkerDef } from '@switchboard/platform'
import { processQueue } from '../commands/queue.commands.ts'
import type { ConversationsService } from '../context.ts'

export const QUEUE_WORKER = 'conversations-queue'

/**
 * The waiting queue on a timer, on every replica at once: kicks after commits (a session waits, an agent comes
 * online or frees a seat) serve it at once; this pass catches whatever a kick missed (a replica that died
 * mid-kick, a shift starting). Replicas sharing the work is safe: records are claimed with SKIP LOCKED and every
 * assignment locks its agent (README "The database is the referee").
 * The pass over every scope already counts what is left waiting: that count is the queue's gauge on `/metrics`
 * (no query of its own; a kick's pass counts one scope only, so it leaves the gauge alone).
 */
export const queueWorker: WorkerDef<ConversationsService> = {
  name: QUEUE_WORKER,
  every: (svc) => svc.config.queue.interval_ms,
  runs: 'every-replica',
  async run(svc, { signal }) {
    const { assigned, remaining } = await processQueue(svc, undefined, { signal })
    svc.queueMetrics.waiting.set(remaining)
    return assigned
  },
}
