/**
 * The SLA's part in ticket writes, called from the ticket commands inside their transaction (one line each in
 * ticket.commands.ts), and from the conversations consumer. A first response is the first agent comment on the
 * ticket or the first agent reply in a conversation linked to it; an answer resolves open first-response
 * violations, a resolve or close resolves every open one. A breach that happened since the monitor's last pass
 * is recorded here, already resolved, so a late answer counts whatever the monitor's interval.
 */
import { nowIso, type Tx } from '@switchboard/platform'
import type { TicketsDatabase } from '../db/database.ts'
import { resolveOpenViolations } from '../db/sla-violations.repository.ts'
import { isSlaOpen, VIOLATION_TYPES, type ViolationType } from '../domain/sla-rules.ts'
import type { TicketComment } from '../schemas/comments.schemas.ts'
import { recordViolations, type SlaTicketRow, standing, violationFor } from './sla-record.ts'

type TicketsTx = Tx<TicketsDatabase>
type TicketLike = Omit<SlaTicketRow, 'first_response_at'>

/** After a comment: a `comment` by anyone but the ticket's customer is an agent's answer. */
export async function slaAfterComment(tx: TicketsTx, ticket: TicketLike, comment: TicketComment): Promise<void> {
  if (comment.type !== 'comment' || comment.author_id === ticket.customer_id) return
  if (tx.caller.actor.kind === 'end_user') return
  await recordFirstResponse(tx, ticket, comment.created_at)
}

/**
 * Stamps the ticket's first response at `at` unless it has one (only while the ticket is still open: an answer
 * after resolution answers nothing the SLA measures), then settles its first-response standing.
 */
export async function recordFirstResponse(tx: TicketsTx, ticket: TicketLike, at: string): Promise<boolean> {
  const stamped = await tx.db
    .updateTable('tickets')
    .set({ first_response_at: at })
    .where('id', '=', ticket.id)
    .where('first_response_at', 'is', null)
    .where('status', 'in', ['open', 'assigned', 'in_progress'])
    .executeTakeFirst()
  if (Number(stamped.numUpdatedRows) === 0) return false
  await settle(tx, ticket, ['first_response'], at)
  return true
}

/** After any status change: a resolved or closed ticket settles every SLA clock it had. */
export async function slaAfterStatusChange(tx: TicketsTx, ticket: TicketLike): Promise<void> {
  if (isSlaOpen(ticket.status)) return
  await settle(tx, ticket, VIOLATION_TYPES, ticket.resolved_at ?? nowIso())
}

async function settle(tx: TicketsTx, ticket: TicketLike, types: readonly ViolationType[], at: string) {
  // the stored first response, whatever the caller's copy of the ticket carries
  const row = await tx.db
    .selectFrom('tickets')
    .select('first_response_at')
    .where('id', '=', ticket.id)
    .executeTakeFirst()
  const current: SlaTicketRow = { ...ticket, first_response_at: row?.first_response_at ?? null }
  const found = await standing(tx.db, current, new Date(at))
  if (found) {
    const late = found.findings.filter((f) => types.includes(f.type) && f.violated && f.met_at !== null)
    await recordViolations(
      tx,
      late.map((f) => violationFor(current, found.config, found.tier, f, at)),
    )
  }
  await resolveOpenViolations(tx.db, ticket.id, types, at)
}
