import type { Scope, Tx } from '@switchboard/platform'
import type { TicketsDatabase } from '../db/database.ts'
import { type DirectoryAgent, type DirectoryCustomer, findAgent, findCustomer } from '../db/directory.repository.ts'
import { findSessionLink } from '../db/sla-projections.repository.ts'
import { TicketErrors } from '../errors.ts'

type TicketsTx = Tx<TicketsDatabase>

/**
 * The customer a ticket names, by record id or user id, among the customers of the ticket's scope as identity's
 * events made them known here; another workspace's customer is as unknown as a made-up id. Tickets store the
 * user id (the statistics definition, and what conversations carry).
 */
export async function customerOf(tx: TicketsTx, ref: string, scope: Scope): Promise<DirectoryCustomer> {
  const customer = await findCustomer(tx.db, ref, scope)
  if (!customer) throw new TicketErrors.UnknownCustomer(ref)
  return customer
}

/** The agent a ticket is given, by agent record id or user id, among the agents of the ticket's scope. */
export async function agentOf(tx: TicketsTx, ref: string, scope: Scope): Promise<DirectoryAgent> {
  const agent = await findAgent(tx.db, ref, scope)
  if (!agent) throw new TicketErrors.UnknownAgent(ref)
  return agent
}

/**
 * The conversation a new ticket continues, among the sessions of the ticket's scope as conversations' session events
 * made them known here (`sla_session_tickets`, every session event); another workspace's session is as unknown as a
 * made-up id, so a ticket never points at another tenant's conversation.
 */
export async function sessionOf(tx: TicketsTx, ref: string, scope: Scope): Promise<void> {
  if (!(await findSessionLink(tx.db, scope, ref))) throw new TicketErrors.UnknownSession(ref)
}
