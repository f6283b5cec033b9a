import type { Delivery } from '@switchboard/events'
import type { ConsumerDef, Tx } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import type { StatisticsDatabase } from '../db/database.ts'
import { advancePosition } from '../db/positions.repository.ts'
import { aiProjection } from './ai.consumer.ts'
import { conversationsProjection } from './conversations.consumer.ts'
import { identityProjection } from './identity.consumer.ts'
import { prepareTickets, ticketsProjection } from './tickets.consumer.ts'

export type Projection = Extract<ConsumerDef<StatisticsService>, { idempotency: 'inbox' }> & {
  /** run in a batch's transaction before its handlers, with the batch's events to apply (consumers/batching.ts) */
  prepare?(svc: StatisticsService, db: Tx<StatisticsDatabase>['db'], batch: Delivery[]): Promise<void>
}

/**
 * A projection that also moves its position (the newest applied event's stream sequence and occurred_at) in the
 * event's transaction: what `stats_projection_lag_seconds` is measured from.
 */
function positioned(def: ConsumerDef<StatisticsService>, prepare?: Projection['prepare']): Projection {
  if (def.idempotency !== 'inbox') throw new Error(`${def.durable}: a projection applies each event once (inbox)`)
  return {
    ...def,
    ...(prepare ? { prepare } : {}),
    async handle(svc, delivery, tx) {
      await def.handle(svc, delivery, tx)
      const occurredAt = new Date(delivery.envelope.occurred_at).toISOString()
      await advancePosition(tx.db, def.durable, delivery.seq, occurredAt, new Date().toISOString())
    },
  }
}

/** The read models' consumers, by name (`switchboard stats rebuild --projection`), each from its own stream. */
export const PROJECTIONS: readonly Projection[] = [
  positioned(identityProjection),
  positioned(ticketsProjection, prepareTickets),
  positioned(conversationsProjection),
  positioned(aiProjection),
]
