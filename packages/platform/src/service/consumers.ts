import type { EventDef } from '@switchboard/contracts'
import type { Delivery, EventBus, Handler, Subscription } from '@switchboard/events'
import { handleOnce } from '@switchboard/events'
import type { Kysely } from 'kysely'
import type { Caller } from '../scope.ts'
import {
  applyDeliveries,
  type BatchOptions,
  batcher,
  callerOf,
  type InboxArgs,
  type InboxPlan,
  type Outcome,
} from './consumer-batch.ts'
import { deliveryQueue, type HandlerBatch, handleBatch } from './consumer-handler-batch.ts'
import { type EventHandler, handlerTable } from './event-handlers.ts'
import { EventContractError, type Tx, txFor } from './transaction.ts'

/** What a handler throws for an event no retry can apply: dead-lettered at once (docs/architecture.md §2). */
export { PoisonMessageError } from '@switchboard/events'

type DbOf<S> = S extends { db: Kysely<infer DB> } ? DB : never

interface ConsumerBase<S> {
  /** durable name; every replica shares its messages (each is handled by one of them) */
  durable: string
  stream: string
  subjects: string[]
  /** deliveries before the dead-letter stream, and the delays between them */
  options?(svc: S): { maxDeliver?: number; backoffMs?: number[] }
}

/**
 * An inbox consumer: each event is applied once (its id recorded in the inbox in the handler's transaction, so a
 * redelivered or replayed event is skipped); what a handler emits goes out with it. `batch`: several deliveries per
 * transaction with a unit of work (consumer-batch.ts); the inbox is still per event.
 */
export interface InboxConsumer<S, W = any> extends ConsumerBase<S> {
  idempotency: 'inbox'
  /** one per contract (`on(def, (event, tx, svc) => …)`); an event of another type is acknowledged, nothing done */
  handlers: readonly EventHandler<InboxArgs<S, DbOf<S>, W>>[]
  batch?: BatchOptions<S, DbOf<S>, W>
}

/** A consumer whose handlers are idempotent by themselves (a unique key, newest wins): no inbox row. */
export interface HandlerConsumer<S> extends ConsumerBase<S> {
  idempotency: 'handler'
  handlers: readonly EventHandler<[svc: S]>[]
}

/**
 * A handler consumer that writes several deliveries at once (group commit, consumer-handler-batch.ts): `batch.handle`
 * gets the deliveries that are ready together, unchecked (it checks its payloads itself), and answers an outcome
 * for each.
 */
export interface BatchHandlerConsumer<S> extends ConsumerBase<S> {
  idempotency: 'handler'
  batch: HandlerBatch<S>
}

/**
 * The untyped form, for consumers not moved to `handlers` yet: one function gets every delivery, its payload
 * unchecked.
 */
export type UntypedConsumer<S> = ConsumerBase<S> &
  (
    | { idempotency: 'inbox'; handle(svc: S, delivery: Delivery, tx: Tx<DbOf<S>>): Promise<void> }
    | { idempotency: 'handler'; handle(svc: S, delivery: Delivery): Promise<void> }
  )

/**
 * A durable consumer declared in a service's descriptor: attached in the background once the app is ready (the
 * service is ready when all are: service/startup.ts), drained on close. Each handler gets its event's payload checked
 * against the contract it was declared for: a payload that does not match is dead-lettered at once
 * (PoisonMessageError); a throwing handler is redelivered after a delay and, past `maxDeliver`, dead-lettered.
 */
export type ConsumerDef<S> = InboxConsumer<S> | HandlerConsumer<S> | BatchHandlerConsumer<S> | UntypedConsumer<S>

export interface ConsumerDeps<S> {
  svc: S
  bus: EventBus
  db: Kysely<DbOf<S>>
  /** opens a unit of work inside the inbox's transaction */
  transactionIn(trx: unknown, caller: Caller): Tx<DbOf<S>>
  kick(): void
}

const plans = new WeakMap<object, InboxPlan<any, any, any>>()

/** The handlers of an inbox consumer, ready to apply deliveries; made (their contracts compiled) once per def. */
export function inboxPlan<S>(def: InboxConsumer<S>): InboxPlan<S, DbOf<S>, unknown> {
  let plan = plans.get(def)
  if (!plan) {
    plan = {
      durable: def.durable,
      table: handlerTable(def.durable, def.handlers),
      ...(def.batch ? { batch: def.batch } : {}),
    }
    plans.set(def, plan)
  }
  return plan
}

/** Each def's handler of one delivery, how many pull loops feed it, and how many deliveries each has in flight. */
function handlerOf<S>(
  def: ConsumerDef<S>,
  deps: ConsumerDeps<S>,
): { lanes: number; inFlight?: number; handler: Handler } {
  if ('handle' in def) {
    if (def.idempotency === 'handler') return { lanes: 1, handler: (delivery) => def.handle(deps.svc, delivery) }
    return {
      lanes: 1,
      handler: async (delivery) => {
        const applied = await handleOnce(deps.db, def.durable, delivery.envelope, (trx) =>
          def.handle(deps.svc, delivery, deps.transactionIn(trx, callerOf(delivery))),
        )
        if (applied) deps.kick()
      },
    }
  }
  if (def.idempotency === 'handler' && 'batch' in def) {
    const { batch } = def
    const size = Math.max(1, Math.floor(batch.size(deps.svc)))
    const queue = deliveryQueue(size, (deliveries) => handleBatch(batch, deps.svc, deliveries))
    return {
      // One pull loop with twice the batch in flight, started in stream order: the batches take the deliveries in
      // that order (one after the other), and while one full batch commits the next one fills. Several loops of one
      // delivery each would mix the order (each pulls its own run of messages).
      lanes: 1,
      inFlight: 2 * size,
      handler: async (delivery) => {
        await queue.submit(delivery)
      },
    }
  }
  if (def.idempotency === 'handler') {
    const table = handlerTable(def.durable, def.handlers)
    return {
      lanes: 1,
      handler: async (delivery) => {
        const routed = table.route(delivery)
        if (routed) await routed.handler.handle(routed.event, deps.svc)
      },
    }
  }
  const plan = inboxPlan(def)
  const apply = { svc: deps.svc, db: deps.db, transactionIn: deps.transactionIn, kick: deps.kick }
  if (!def.batch) {
    return {
      lanes: 1,
      handler: async (delivery) => {
        const [o] = await applyDeliveries(plan, apply, [delivery])
        if (!o!.ok) throw o!.error
      },
    }
  }
  const queue = batcher(plan, apply)
  return {
    lanes: def.batch.lanes ?? def.batch.size,
    handler: async (delivery) => {
      await queue.submit(delivery)
    },
  }
}

export interface Consumers {
  /**
   * Attaches the consumers not attached yet, in order: after a failure it resumes where it stopped (none is attached
   * twice); once `stop` was called (or `signal` aborted) it attaches nothing more, and stops one that arrives late.
   */
  start(signal?: AbortSignal): Promise<void>
  stop(): Promise<void>
}

export function createConsumers<S>(defs: readonly ConsumerDef<S>[], deps: ConsumerDeps<S>): Consumers {
  const subscriptions: Subscription[] = []
  let attached = 0
  let stopped = false
  return {
    async start(signal) {
      while (attached < defs.length && !stopped && !signal?.aborted) {
        const def = defs[attached]!
        const opts = def.options?.(deps.svc) ?? {}
        const { lanes, inFlight, handler } = handlerOf(def, deps)
        const mine: Subscription[] = []
        const attach = async () => {
          mine.push(
            await deps.bus.consume(
              {
                durable: def.durable,
                stream: def.stream,
                filterSubjects: def.subjects,
                ...opts,
                ...(inFlight ? { inFlight } : {}),
              },
              handler,
            ),
          )
        }
        try {
          // the first lane makes the durable; the others attach together (one after the other, a backlog would be
          // drained by the first few lanes in small batches while the rest were still attaching)
          await attach()
          const rest = await Promise.allSettled(Array.from({ length: lanes - 1 }, attach))
          const failed = rest.find((r) => r.status === 'rejected')
          if (failed) throw failed.reason
        } catch (err) {
          await Promise.all(mine.map((s) => s.stop())) // none attached twice when start resumes
          throw err
        }
        if (stopped) {
          await Promise.all(mine.map((s) => s.stop())) // attached while the service was closing
          return
        }
        subscriptions.push(...mine)
        attached++
      }
    },
    async stop() {
      stopped = true
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()))
    },
  }
}

/**
 * Applies `deliveries` (in their order) through an inbox consumer's handlers as its live consumer would (payloads
 * checked, inbox per event, batched by its `batch` option, failures one by one): for a replay of its stream, such as
 * a projection's rebuild. A handler's `emit` is refused here: what a replay applies was announced once already.
 */
export function replayInbox<S extends { db: Kysely<any> }>(
  svc: S,
  def: InboxConsumer<S>,
  deliveries: readonly Delivery[],
): Promise<Outcome[]> {
  const refuse = (event: EventDef) => {
    throw new EventContractError(`${def.durable}: a replay emits no events (${event.type})`)
  }
  return applyDeliveries(
    inboxPlan(def),
    { svc, db: svc.db, transactionIn: (trx, caller) => txFor(trx, caller, refuse) },
    deliveries,
  )
}
