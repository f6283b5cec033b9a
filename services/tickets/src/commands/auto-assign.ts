import type { Tx } from '@switchboard/platform'
import type { TicketsDatabase } from '../db/database.ts'
import { agentsWithLoad, lockAgents } from '../db/directory.repository.ts'
import { assignOrder } from '../domain/auto-assign.ts'
import type { Ticket } from '../schemas/tickets.schemas.ts'

/**
 * The agent (user id) a new ticket goes to when auto-assignment is on: among the ticket's scope's online agents
 * (identity's events) under capacity, the lowest load (this service's open tickets). Their rows are locked first and
 * the loads counted under the locks, so concurrent creations never pass an agent's capacity. Null when nobody is
 * free: the ticket stays open in the queue.
 */
export async function autoAssign(tx: Tx<TicketsDatabase>, ticket: Ticket): Promise<string | null> {
  const online = await agentsWithLoad(tx.db, ticket)
  if (online.length === 0) return null
  const locked = new Set(online.map((a) => a.agent_id))
  await lockAgents(tx, [...locked])
  // counted again now that no other creation can be assigning to them
  const candidates = assignOrder((await agentsWithLoad(tx.db, ticket)).filter((a) => locked.has(a.agent_id)))
  return candidates[0]?.user_id ?? null
}
