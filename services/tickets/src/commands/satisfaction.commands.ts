import { TicketSatisfactionEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso, type Tx } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import type { TicketsDatabase } from '../db/database.ts'
import {
  deleteSatisfaction,
  findSatisfaction,
  insertSatisfaction,
  satisfactionOfSession,
  satisfactionOfTicket,
  writeSatisfaction,
} from '../db/satisfaction.repository.ts'
import { moveSurvey, surveyOfTicket } from '../db/survey.repository.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { SatisfactionErrors, TicketErrors } from '../errors.ts'
import type {
  CreateSatisfactionBody,
  Satisfaction,
  SessionRatingBody,
  UpdateSatisfactionBody,
} from '../schemas/satisfaction.schemas.ts'
import { scopeOf } from './sla-record.ts'
import { agentOf } from './ticket-references.ts'

type TicketsTx = Tx<TicketsDatabase>

const facts = (s: Satisfaction) => ({
  satisfaction_id: s.id,
  ticket_id: s.ticket_id,
  customer_id: s.customer_id,
  session_id: s.session_id,
  agent_id: s.agent_id,
  rating: s.rating,
  category: s.category,
  source: s.source,
  rated_at: s.updated_at,
})

/**
 * Stores a ticket's one rating and announces it (identity keeps the agent's rating from the event, statistics
 * its satisfaction); a survey still waiting for the customer is closed with it. Shared by staff entry and the
 * public survey answer.
 */
export async function rate(tx: TicketsTx, s: Satisfaction): Promise<Satisfaction> {
  if (s.ticket_id && (await satisfactionOfTicket(tx.db, s.ticket_id))) throw new SatisfactionErrors.Exists(s.ticket_id)
  // a concurrent second rating meets the unique ticket_id and is answered 409 CONFLICT by the error handler
  await insertSatisfaction(tx.db, s)
  const survey = s.ticket_id ? await surveyOfTicket(tx.db, s.ticket_id) : undefined
  if (survey) {
    await moveSurvey(tx.db, survey.id, ['queued', 'sent', 'expired'], {
      status: 'completed',
      completed_at: s.created_at,
      satisfaction_id: s.id,
      updated_at: s.created_at,
    })
  }
  await tx.emit(TicketSatisfactionEvents.rated, facts(s), scopeOf(s))
  return s
}

/** `POST /api/satisfactions`: staff record a customer's rating of one of their tickets. */
export function createSatisfaction(svc: TicketsService, caller: Caller, body: CreateSatisfactionBody) {
  return svc.transaction(caller, async (tx) => {
    const ticket = await findTicket(tx.db, body.ticket_id, caller.scope)
    if (!ticket) throw new TicketErrors.NotFound(body.ticket_id)
    if (body.customer_id !== undefined && body.customer_id !== ticket.customer_id) {
      throw new SatisfactionErrors.NotOwner(body.customer_id, ticket.id)
    }
    // an agent named by record or user id is one of the ticket's workspace, stored by user id (identity keeps the
    // agent's rating by it); unnamed, the ticket's own agent
    const agentId = body.agent_id
      ? (await agentOf(tx, body.agent_id, { tenant_id: ticket.tenant_id, workspace_id: ticket.workspace_id })).user_id
      : ticket.agent_id
    const now = nowIso()
    return rate(tx, {
      id: newId(),
      ticket_id: ticket.id,
      customer_id: ticket.customer_id,
      session_id: null,
      agent_id: agentId,
      rating: body.rating,
      comment: body.comment?.trim() ?? '',
      category: body.category?.trim() || 'overall',
      source: 'api',
      tenant_id: ticket.tenant_id,
      workspace_id: ticket.workspace_id,
      created_at: now,
      updated_at: now,
    })
  })
}

/**
 * `POST /internal/satisfactions/session`: a widget visitor's rating of a closed conversation, which conversations
 * has verified (the visitor's credential, the status). One per conversation (409
 * `TICKETS_SATISFACTION_ALREADY_GIVEN`). It is the rating of the conversation's ticket when it has one of this
 * scope not yet rated (its waiting survey completed with it); otherwise of the conversation and its agent alone.
 * Announced as `tickets.satisfaction.rated`, like every rating: statistics counts it once, identity adds it to the
 * agent's rating.
 */
export function rateSession(svc: TicketsService, caller: Caller, body: SessionRatingBody) {
  return svc.transaction(caller, async (tx) => {
    const scope = concreteScope(caller)
    if (await satisfactionOfSession(tx.db, body.session_id)) throw new SatisfactionErrors.AlreadyGiven(body.session_id)
    const ticket = body.ticket_id ? await findTicket(tx.db, body.ticket_id, scope) : undefined
    const ticketId = ticket && !(await satisfactionOfTicket(tx.db, ticket.id)) ? ticket.id : null
    const now = nowIso()
    return rate(tx, {
      id: newId(),
      ticket_id: ticketId,
      customer_id: body.customer_id,
      session_id: body.session_id,
      agent_id: body.agent_id,
      rating: body.rating,
      comment: body.comment?.trim() ?? '',
      category: 'overall',
      source: 'widget',
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
      created_at: now,
      updated_at: now,
    })
  })
}

export function updateSatisfaction(svc: TicketsService, caller: Caller, id: string, body: UpdateSatisfactionBody) {
  return svc.transaction(caller, async (tx) => {
    const before = await findSatisfaction(tx.db, id, caller.scope)
    if (!before) throw new SatisfactionErrors.NotFound(id)
    const patch: Partial<Satisfaction> = {}
    if (body.rating !== undefined && body.rating !== before.rating) patch.rating = body.rating
    if (body.comment !== undefined && body.comment.trim() !== before.comment) patch.comment = body.comment.trim()
    if (body.category !== undefined && body.category.trim() !== before.category) patch.category = body.category.trim()
    if (Object.keys(patch).length === 0) return { before, after: before }
    const after: Satisfaction = { ...before, ...patch, updated_at: nowIso() }
    await writeSatisfaction(tx.db, id, { ...patch, updated_at: after.updated_at })
    if (patch.rating !== undefined || patch.category !== undefined) {
      await tx.emit(
        TicketSatisfactionEvents.changed,
        { ...facts(after), previous_rating: before.rating },
        scopeOf(after),
      )
    }
    return { before, after }
  })
}

export function removeSatisfaction(svc: TicketsService, caller: Caller, id: string) {
  return svc.transaction(caller, async (tx) => {
    const before = await findSatisfaction(tx.db, id, caller.scope)
    if (!before) throw new SatisfactionErrors.NotFound(id)
    await deleteSatisfaction(tx.db, id)
    await tx.emit(TicketSatisfactionEvents.removed, facts(before), scopeOf(before))
    return before
  })
}
