import { newId, nowIso, type Tx } from '@switchboard/platform'
import { definitionOf, listCustomFields } from '../db/custom-fields.repository.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { insertStatusChange } from '../db/status-history.repository.ts'
import { writeCustomValueRows, writeTagRows } from '../db/ticket-index.repository.ts'
import { valuesProblems } from '../domain/custom-fields.ts'
import { TicketErrors } from '../errors.ts'
import type { Ticket } from '../schemas/tickets.schemas.ts'

type TicketsTx = Tx<TicketsDatabase>

// What a ticket write keeps beside the ticket row, in the same transaction: its status history and the rows that
// index its tags and custom values.

/** One status the ticket took, by the caller (`from` null on creation). */
export function recordStatus(tx: TicketsTx, after: Ticket, from: string | null, reason = ''): Promise<void> {
  return insertStatusChange(
    tx.db,
    {
      id: newId(),
      ticket_id: after.id,
      from_status: from,
      to_status: after.status,
      actor_id: tx.caller.actor.user_id,
      reason,
      created_at: nowIso(),
    },
    after,
  )
}

/** Rewrites the index rows of what changed (`changed` as in the updated event; all on creation). */
export async function reindex(tx: TicketsTx, after: Ticket, changed: readonly string[] | 'all'): Promise<void> {
  if (changed === 'all' || changed.includes('tags')) await writeTagRows(tx.db, after)
  if (changed === 'all' || changed.includes('custom_fields')) await writeCustomValueRows(tx.db, after)
}

/**
 * Checks a write's custom values (`given`, as the request sent them) against the active fields of the ticket's
 * scope, and the required ones against the ticket as the write leaves it; one 400 lists every bad value.
 */
export async function checkCustomValues(tx: TicketsTx, ticket: Ticket, given: Record<string, unknown>): Promise<void> {
  const defs = await listCustomFields(tx.db, ticket, { resource: 'ticket', active: true })
  const problems = valuesProblems(defs.map(definitionOf), given, ticket.custom_fields, ticket, { checkRequired: true })
  if (problems.length > 0) throw new TicketErrors.InvalidCustomFields(problems.join('; '))
}
