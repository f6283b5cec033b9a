import type { Static } from '@sinclair/typebox'
import { IdentityEvents, TicketSatisfactionEvents } from '@switchboard/contracts'
import { type ConsumedEvent, type ConsumerDef, type ConsumerTx, on } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { applyRatingDelta } from '../db/agents.repository.ts'
import type { IdentityDatabase } from '../db/database.ts'
import { agentFacts } from '../db/event-facts.ts'

export const AGENT_RATINGS_CONSUMER = 'identity-agent-ratings'

type Rated = Static<typeof TicketSatisfactionEvents.rated.data>
type Changed = Static<typeof TicketSatisfactionEvents.changed.data>

/** What one satisfaction event does to its agent's running sum and count; undefined when it moves nothing. */
export function ratingDelta(type: string, data: Rated | Changed): { sum: number; count: number } | undefined {
  switch (type) {
    case TicketSatisfactionEvents.rated.type:
      return { sum: data.rating, count: 1 }
    case TicketSatisfactionEvents.changed.type: {
      const diff = data.rating - (data as Changed).previous_rating
      return diff === 0 ? undefined : { sum: diff, count: 0 }
    }
    case TicketSatisfactionEvents.removed.type:
      return { sum: -data.rating, count: -1 }
    default:
      return undefined
  }
}

/**
 * An agent's `rating`: the average of the satisfaction ratings of the tickets assigned to them (tickets'
 * `agent_id` is the agent's user id), moved by tickets' rating events — applied once each (inbox), rebuilt by
 * replay from the start of the TICKETS stream. A moved rating is announced as `identity.agent.upserted`, so the
 * projections of agents elsewhere (statistics) follow. A rating of a ticket without an agent, or of an agent this
 * scope does not know, moves nothing.
 */
export const agentRatings: ConsumerDef<IdentityService> = {
  durable: AGENT_RATINGS_CONSUMER,
  stream: 'TICKETS',
  subjects: ['tickets.satisfaction.>'],
  idempotency: 'inbox',
  handlers: [
    on(TicketSatisfactionEvents.rated, (event, tx, svc) => rated(event, tx, svc)),
    on(TicketSatisfactionEvents.changed, (event, tx, svc) => rated(event, tx, svc)),
    on(TicketSatisfactionEvents.removed, (event, tx, svc) => rated(event, tx, svc)),
  ],
}

/** One satisfaction event's move of its agent's rating, announced when it moved. */
async function rated(
  { envelope, data }: ConsumedEvent<Rated | Changed>,
  tx: ConsumerTx<IdentityDatabase>,
  svc: IdentityService,
): Promise<void> {
  const delta = ratingDelta(envelope.type, data)
  if (!delta || !data.agent_id || !envelope.tenant_id || !envelope.workspace_id) return
  const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
  const agent = await applyRatingDelta(tx.db, scope, data.agent_id, delta, new Date().toISOString())
  if (!agent) {
    svc.log.debug({ component: AGENT_RATINGS_CONSUMER, agent_id: data.agent_id }, 'rating of an unknown agent')
    return
  }
  await tx.emit(IdentityEvents.agentUpserted, agentFacts(agent), scope)
}
