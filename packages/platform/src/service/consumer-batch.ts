import { claimInbox, type Delivery } from '@switchboard/events'
import type { Kysely, Transaction } from 'kysely'
import { type Caller, systemCaller } from '../scope.ts'
import type { ConsumedEvent, EventHandler, HandlerTable } from './event-handlers.ts'
import type { Tx } from './transaction.ts'

// Group commit (the inbox consumers' `batch` option). A commit waits for the disk (≈ 2 ms here, against ≈ 0.05 ms for
// a statement): one event per transaction caps a consumer at a few hundred events/s. A batch applies up to `size`
// deliveries in arrival order in ONE transaction: their inbox rows in one statement, each handler as if alone, what
// they added to the unit of work written once by `flush`, one commit; each delivery is acknowledged once it commits.
// If any of them throws, the batch is rolled back whole and its events are applied one by one, each in its own
// transaction: the one that threw is redelivered (or dead-lettered) as usual and the others are not held back by it.

/** A consumer's unit of work in its handlers' transaction: `work` is what its batch's `open` made (else undefined). */
export type ConsumerTx<DB, W = undefined> = Tx<DB> & { readonly work: W }

/** The arguments after the event that an inbox consumer's handlers get. */
export type InboxArgs<S, DB, W> = [tx: ConsumerTx<DB, W>, svc: S]

/**
 * Several deliveries in one transaction with an explicit unit of work. Per transaction: `open` (first: a lock it
 * takes comes before any row), the inbox claim, `prepare` with the events claimed now, each event's handler (which
 * adds rows and counters to the work instead of writing them), `flush` (the work written once), commit.
 */
export interface BatchOptions<S, DB, W> {
  /** deliveries applied in one transaction at most */
  size: number
  /**
   * pull loops per replica feeding the batches (default `size`): each holds one delivery at a time, so this bounds
   * a batch's size as well; while a batch commits, the next one gathers
   */
  lanes?: number
  open(tx: Tx<DB>, svc: S): Promise<W> | W
  prepare?(work: W, events: readonly Delivery[], tx: Tx<DB>, svc: S): Promise<void>
  flush(work: W, tx: Tx<DB>, svc: S): Promise<void>
}

/** What applying an inbox consumer's deliveries needs. */
export interface ApplyDeps<S, DB> {
  svc: S
  db: Kysely<DB>
  /** a unit of work inside a transaction opened here */
  transactionIn(trx: Transaction<DB>, caller: Caller): Tx<DB>
  /** called once after a commit whose handlers emitted (the outbox relay publishes soon) */
  kick?(): void
}

/** An inbox consumer as the batches see it. */
export interface InboxPlan<S, DB, W> {
  durable: string
  table: HandlerTable<InboxArgs<S, DB, W>>
  batch?: BatchOptions<S, DB, W>
}

/** Per delivery: applied now, seen already (applied before), or the error of its own transaction. */
export type Outcome = { ok: true; applied: boolean } | { ok: false; error: unknown }

/** Who an event's handler acts as: the event's actor, in its scope. */
export const callerOf = ({ envelope }: Delivery): Caller => ({
  actor: envelope.actor,
  scope: { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id },
  request_id: envelope.request_id,
})

type Routed<A extends unknown[]> = {
  delivery: Delivery
  route?: { event: ConsumedEvent<unknown>; handler: EventHandler<A> }
}

/** The batch in one transaction: each event once, in its order; true for those applied now. */
async function applyTogether<S, DB, W>(
  plan: InboxPlan<S, DB, W>,
  deps: ApplyDeps<S, DB>,
  batch: Routed<InboxArgs<S, DB, W>>[],
): Promise<boolean[]> {
  let emitted = false
  const applied = await deps.db.transaction().execute(async (trx) => {
    const own = deps.transactionIn(trx, systemCaller())
    const work = (plan.batch ? await plan.batch.open(own, deps.svc) : undefined) as W
    const fresh = await claimInbox(
      trx,
      plan.durable,
      batch.map((r) => r.delivery.envelope.id),
    )
    await plan.batch?.prepare?.(
      work,
      batch.filter((r) => fresh.has(r.delivery.envelope.id)).map((r) => r.delivery),
      own,
      deps.svc,
    )
    const applied: boolean[] = []
    for (const { delivery, route } of batch) {
      const now = fresh.delete(delivery.envelope.id) // a second copy of one event in the batch is seen already
      if (now && route) {
        const base = deps.transactionIn(trx, callerOf(delivery))
        const tx: ConsumerTx<DB, W> = {
          ...base,
          work,
          async emit(def, data, scope) {
            await base.emit(def, data, scope)
            emitted = true
          },
        }
        await route.handler.handle(route.event, tx, deps.svc)
      }
      applied.push(now)
    }
    if (plan.batch) await plan.batch.flush(work, own, deps.svc)
    return applied
  })
  if (emitted) deps.kick?.()
  return applied
}

/**
 * Applies `deliveries` (in their order) once each: their payloads checked first (a mismatch is its delivery's
 * PoisonMessageError, never part of a transaction), then in one transaction, or, if any of them throws, one by one.
 */
export async function applyDeliveries<S, DB, W>(
  plan: InboxPlan<S, DB, W>,
  deps: ApplyDeps<S, DB>,
  deliveries: readonly Delivery[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(deliveries.length)
  const routed: Array<Routed<InboxArgs<S, DB, W>> & { at: number }> = []
  deliveries.forEach((delivery, at) => {
    try {
      const route = plan.table.route(delivery)
      routed.push({ delivery, at, ...(route ? { route } : {}) })
    } catch (error) {
      outcomes[at] = { ok: false, error }
    }
  })
  if (routed.length > 1) {
    try {
      const applied = await applyTogether(plan, deps, routed)
      routed.forEach((r, i) => {
        outcomes[r.at] = { ok: true, applied: applied[i]! }
      })
      return outcomes
    } catch {
      // one of them throws (a partial event before its record, say): each alone
    }
  }
  for (const r of routed) {
    try {
      const [applied] = await applyTogether(plan, deps, [r])
      outcomes[r.at] = { ok: true, applied: applied ?? false }
    } catch (error) {
      outcomes[r.at] = { ok: false, error }
    }
  }
  return outcomes
}

interface Waiting {
  delivery: Delivery
  resolve(applied: boolean): void
  reject(err: unknown): void
}

/**
 * One consumer's deliveries, submitted by its lanes and applied `size` at a time (one at a time without a batch
 * option): a delivery's promise settles when its transaction commits (true: applied now) or with its own error.
 */
export function batcher<S, DB, W>(plan: InboxPlan<S, DB, W>, deps: ApplyDeps<S, DB>) {
  const size = plan.batch?.size ?? 1
  const queue: Waiting[] = []
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, size)
        const outcomes = await applyDeliveries(
          plan,
          deps,
          batch.map((w) => w.delivery),
        )
        batch.forEach((w, i) => {
          const o = outcomes[i]!
          if (o.ok) w.resolve(o.applied)
          else w.reject(o.error)
        })
      }
    } catch (err) {
      for (const w of queue.splice(0)) w.reject(err)
    } finally {
      running = false
    }
  }
  return {
    submit(delivery: Delivery): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ delivery, resolve, reject })
        void run()
      })
    },
  }
}
