import type { Delivery } from '@switchboard/events'
import type { Outcome } from './consumer-batch.ts'

// Group commit for a handler consumer (`idempotency: 'handler'`: its handler dedupes by itself, a unique key say).
// The inbox consumers' batch (consumer-batch.ts) owns the transaction and the inbox; here the consumer owns its
// writes: it gets the deliveries that are ready together and writes them as it can (one multi-row statement, say),
// answering one outcome per delivery.

/**
 * A handler consumer's `batch`: `handle` gets up to `size` deliveries at once and answers one outcome per delivery,
 * in their order, once what it wrote for them is committed. Each delivery is acknowledged, redelivered or
 * dead-lettered (a PoisonMessageError at once) by its own outcome. A `handle` that throws as a whole is called
 * again with each of its deliveries alone, so that one bad delivery never fails its batch-mates.
 */
export interface HandlerBatch<S> {
  /**
   * deliveries per call at most; twice as many pull loops per replica feed the batches (each holds one delivery
   * until its outcome), so that the next batch fills while one commits
   */
  size(svc: S): number
  handle(svc: S, deliveries: readonly Delivery[]): Promise<Outcome[]>
}

/** One call of `handle` for the batch, or, if it throws (or miscounts), one call per delivery. */
export async function handleBatch<S>(
  batch: HandlerBatch<S>,
  svc: S,
  deliveries: readonly Delivery[],
): Promise<Outcome[]> {
  const once = async (ds: readonly Delivery[]) => {
    const outcomes = await batch.handle(svc, ds)
    if (outcomes.length !== ds.length) {
      throw new Error(`a batch handler answered ${outcomes.length} outcomes for ${ds.length} deliveries`)
    }
    return outcomes
  }
  try {
    return await once(deliveries)
  } catch (error) {
    if (deliveries.length === 1) return [{ ok: false, error }]
  }
  const alone: Outcome[] = []
  for (const delivery of deliveries) {
    try {
      alone.push(...(await once([delivery])))
    } catch (error) {
      alone.push({ ok: false, error })
    }
  }
  return alone
}

interface Waiting {
  delivery: Delivery
  resolve(applied: boolean): void
  reject(err: unknown): void
}

/**
 * Deliveries submitted by a consumer's lanes, handed to `apply` up to `size` at a time, with no wait added: the
 * first batch starts at the end of the event-loop turn its first delivery arrived in (every delivery that arrived in
 * that turn joins it), and while a batch runs the next one gathers. A delivery's promise settles with its own
 * outcome (true: applied now) or error.
 */
export function deliveryQueue(size: number, apply: (deliveries: readonly Delivery[]) => Promise<Outcome[]>) {
  const queue: Waiting[] = []
  let state: 'idle' | 'scheduled' | 'running' = 'idle'
  const run = async () => {
    state = 'running'
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, size)
        let outcomes: Outcome[]
        try {
          outcomes = await apply(batch.map((w) => w.delivery))
        } catch (err) {
          for (const w of batch) w.reject(err)
          continue
        }
        batch.forEach((w, i) => {
          const o = outcomes[i]
          if (o?.ok) w.resolve(o.applied)
          else w.reject(o ? o.error : new Error('no outcome for this delivery'))
        })
      }
    } finally {
      state = 'idle'
    }
  }
  return {
    submit(delivery: Delivery): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ delivery, resolve, reject })
        if (state === 'idle') {
          state = 'scheduled'
          setImmediate(() => void run())
        }
      })
    },
  }
}
