import type { Delivery, EventBus, Subscription } from '@switchboard/events'
import { handleOnce } from '@switchboard/events'
import type { Kysely } from 'kysely'
import type { Caller } from '../scope.ts'
import type { Tx } from './transaction.ts'

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
 * A durable consumer declared in a service's descriptor: attached in the background once the app is ready (the
 * service is ready when all are: service/startup.ts), drained on close. A throwing handler is redelivered after a delay and, past `maxDeliver`, dead-lettered.
 *
 * `inbox`: the handler runs in a transaction that also records the event id in the inbox, so a redelivered or
 * replayed event is applied once; what it emits goes out with it. `handler`: the handler is idempotent by
 * itself (a unique key on the event id, say) and needs no inbox row.
 */
export type ConsumerDef<S> = ConsumerBase<S> &
  (
    | { idempotency: 'inbox'; handle(svc: S, delivery: Delivery, tx: Tx<DbOf<S>>): Promise<void> }
    | { idempotency: 'handler'; handle(svc: S, delivery: Delivery): Promise<void> }
  )

export interface ConsumerDeps<S> {
  svc: S
  bus: EventBus
  db: Kysely<DbOf<S>>
  /** opens a unit of work inside the inbox's transaction */
  transactionIn(trx: unknown, caller: Caller): Tx<DbOf<S>>
  kick(): void
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
        const handler =
          def.idempotency === 'handler'
            ? (delivery: Delivery) => def.handle(deps.svc, delivery)
            : async (delivery: Delivery) => {
                const { envelope } = delivery
                const caller: Caller = {
                  actor: envelope.actor,
                  scope: { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id },
                  request_id: envelope.request_id,
                }
                const applied = await handleOnce(deps.db, def.durable, envelope, (trx) =>
                  def.handle(deps.svc, delivery, deps.transactionIn(trx, caller)),
                )
                if (applied) deps.kick()
              }
        const subscription = await deps.bus.consume(
          { durable: def.durable, stream: def.stream, filterSubjects: def.subjects, ...opts },
          handler,
        )
        if (stopped) {
          await subscription.stop() // attached while the service was closing
          return
        }
        subscriptions.push(subscription)
        attached++
      }
    },
    async stop() {
      stopped = true
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()))
    },
  }
}
