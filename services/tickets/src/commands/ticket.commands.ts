import { isDeepStrictEqual } from 'node:util'
import { TicketEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso, type Scope, type Tx } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { insertComment } from '../db/comments.repository.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { findTicketSettings } from '../db/ticket-settings.repository.ts'
import { findTicketForUpdate, insertTicket, updateTicket as writeTicket } from '../db/tickets.repository.ts'
import { mergeValues } from '../domain/custom-fields.ts'
import { closeComment, normalizeTags, TICKET_DEFAULTS } from '../domain/ticket.ts'
import { ticketFacts } from '../domain/ticket-facts.ts'
import {
  canClose,
  checkTransition,
  stampsFor,
  statusAfterAssign,
  statusAfterUnassign,
  type TicketStatus,
} from '../domain/ticket-status.ts'
import { TicketErrors } from '../errors.ts'
import type { AddCommentBody, CommentType, TicketComment } from '../schemas/comments.schemas.ts'
import type { CreateTicketBody, Ticket, UpdateTicketBody } from '../schemas/tickets.schemas.ts'
import { autoAssign } from './auto-assign.ts'
import { slaAfterComment, slaAfterStatusChange } from './sla-hooks.ts'
import { scheduleSurvey } from './survey.commands.ts'
import { checkCustomValues, recordStatus, reindex } from './ticket-records.ts'
import { agentOf, customerOf, sessionOf } from './ticket-references.ts'

/** A command's answer when it changed a record: both sides, for the audit record. */
export interface Change {
  before: Ticket
  after: Ticket
}

export type TicketsTx = Tx<TicketsDatabase>

// Every event of a ticket carries the ticket's own scope, so an unscoped admin's change still lands in the tenant
// it touched; the caller stays the actor.
export const scopeOfTicket = (t: Ticket) => ({ tenant_id: t.tenant_id, workspace_id: t.workspace_id })

/**
 * Reads a ticket of the caller's scope for change: another tenant's is not found, like a missing one. Its row is
 * locked until commit, so two transitions can't both pass.
 */
export async function load(tx: TicketsTx, id: string): Promise<Ticket> {
  const ticket = await findTicketForUpdate(tx, id, tx.caller.scope)
  if (!ticket) throw new TicketErrors.NotFound(id)
  return ticket
}

/**
 * A new ticket of the caller's scope, for a customer of that scope (stored by user id). Its custom values are
 * checked against the scope's fields; with auto-assignment on, it leaves assigned when an agent is free.
 */
export function createTicket(svc: TicketsService, caller: Caller, body: CreateTicketBody): Promise<Ticket> {
  const scope = concreteScope(caller)
  return svc.transaction(caller, async (tx) => {
    const customer = await customerOf(tx, body.customer_id, scope)
    return openTicket(svc, tx, scope, customer.user_id, body)
  })
}

/**
 * A new ticket in `scope` for the customer `customerUserId` (already known to be one of the scope: checked against
 * the directory by createTicket, vouched for by identity for a widget's message), inside the caller's transaction.
 */
export async function openTicket(
  svc: TicketsService,
  tx: TicketsTx,
  scope: Scope,
  customerUserId: string,
  body: Omit<CreateTicketBody, 'customer_id'>,
): Promise<Ticket> {
  if (body.session_id !== undefined) await sessionOf(tx, body.session_id, scope)
  const now = nowIso()
  const ticket: Ticket = {
    id: newId(),
    title: body.title.trim(),
    description: body.description ?? '',
    customer_id: customerUserId,
    agent_id: null,
    session_id: body.session_id ?? null,
    category: body.category ?? TICKET_DEFAULTS.category,
    priority: body.priority ?? TICKET_DEFAULTS.priority,
    status: TICKET_DEFAULTS.status,
    source: body.source ?? TICKET_DEFAULTS.source,
    tags: normalizeTags(body.tags ?? []),
    custom_fields: mergeValues({}, body.custom_fields ?? {}),
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    created_at: now,
    updated_at: now,
    resolved_at: null,
    closed_at: null,
  }
  await checkCustomValues(tx, ticket, body.custom_fields ?? {})
  await insertTicket(tx.db, ticket)
  await reindex(tx, ticket, 'all')
  await recordStatus(tx, ticket, null)
  await tx.emit(TicketEvents.created, ticketFacts(ticket), scopeOfTicket(ticket))
  if (ticket.session_id) {
    await tx.emit(
      TicketEvents.sessionLinked,
      { ticket_id: ticket.id, session_id: ticket.session_id, customer_id: ticket.customer_id },
      scopeOfTicket(ticket),
    )
  }
  if (!(await findTicketSettings(tx.db, scope, svc.config)).auto_assign) return ticket
  const agent = await autoAssign(tx, ticket)
  return agent ? (await assignIn(tx, ticket.id, agent, 'auto-assigned')).after : ticket
}

const EDITABLE = ['title', 'description', 'category', 'priority', 'tags', 'custom_fields'] as const

export function updateTicket(svc: TicketsService, caller: Caller, id: string, body: UpdateTicketBody): Promise<Change> {
  return svc.transaction(caller, (tx) => updateIn(tx, id, body))
}

/** PUT's rules inside a transaction someone opened (PUT itself, or one ticket of a bulk change). */
export async function updateIn(tx: TicketsTx, id: string, body: UpdateTicketBody, reason = ''): Promise<Change> {
  const before = await load(tx, id)
  const now = nowIso()
  const patch: Partial<Ticket> = {}
  for (const key of EDITABLE) {
    let value: unknown = body[key]
    if (key === 'tags' && body.tags) value = normalizeTags(body.tags)
    // custom values merge: a key given replaces its value, null removes it, the others stay
    if (key === 'custom_fields' && body.custom_fields) value = mergeValues(before.custom_fields, body.custom_fields)
    if (value !== undefined && !isDeepStrictEqual(value, before[key])) Object.assign(patch, { [key]: value })
  }
  const from = before.status as TicketStatus
  const to = body.status
  if (to !== undefined) {
    const check = checkTransition(from, to, before.agent_id !== null)
    if (!check.ok) {
      throw check.reason === 'agent_required'
        ? new TicketErrors.AgentRequired(from, to)
        : new TicketErrors.InvalidTransition(from, to)
    }
    if (check.changed) Object.assign(patch, { status: to }, stampsFor(to, before, now))
  }
  // A write that carries custom values is checked whole, against the ticket as it will be (show_when may look at
  // its category or status); one without them leaves a field made required later to the next edit of the values.
  if (body.custom_fields !== undefined) await checkCustomValues(tx, { ...before, ...patch }, body.custom_fields)
  const changed = Object.keys(patch)
  // Nothing differs: no write, no event, updated_at untouched (a PUT is idempotent).
  if (changed.length === 0) return { before, after: before }
  const after: Ticket = { ...before, ...patch, updated_at: now }
  await writeTicket(tx.db, id, { ...patch, updated_at: now })
  await reindex(tx, after, changed)
  await tx.emit(TicketEvents.updated, { ticket: ticketFacts(after), changed }, scopeOfTicket(after))
  if (patch.status) await statusChanged(tx, from, after, reason)
  if (patch.status === 'closed') await closeEffects(tx, after, reason || undefined)
  return { before, after }
}

/** `agentRef`: the agent's record id or user id, an agent of the ticket's scope; the ticket keeps the user id. */
export function assignTicket(svc: TicketsService, caller: Caller, id: string, agentRef: string): Promise<Change> {
  return svc.transaction(caller, async (tx) => {
    const ticket = await load(tx, id)
    const agent = await agentOf(tx, agentRef, scopeOfTicket(ticket))
    return assignIn(tx, id, agent.user_id)
  })
}

/** Gives the ticket to an agent (a user id already checked against the ticket's scope). */
export async function assignIn(tx: TicketsTx, id: string, agentId: string, reason = ''): Promise<Change> {
  const before = await load(tx, id)
  const from = before.status as TicketStatus
  const status = statusAfterAssign(from)
  if (!status) throw new TicketErrors.NotAssignable(from)
  const changed = [...(before.agent_id !== agentId ? ['agent_id'] : []), ...(status !== from ? ['status'] : [])]
  if (changed.length === 0) return { before, after: before }
  const now = nowIso()
  const after: Ticket = { ...before, agent_id: agentId, status, updated_at: now }
  await writeTicket(tx.db, id, { agent_id: agentId, status, updated_at: now })
  await tx.emit(TicketEvents.updated, { ticket: ticketFacts(after), changed }, scopeOfTicket(after))
  if (status !== from) await statusChanged(tx, from, after, reason)
  return { before, after }
}

/** Takes the agent off the ticket; work that needed the agent goes back to open (statusAfterUnassign). */
export async function unassignIn(tx: TicketsTx, id: string, reason = ''): Promise<Change> {
  const before = await load(tx, id)
  const from = before.status as TicketStatus
  const status = statusAfterUnassign(from)
  if (!status) throw new TicketErrors.NotUnassignable(from)
  const changed = [...(before.agent_id !== null ? ['agent_id'] : []), ...(status !== from ? ['status'] : [])]
  if (changed.length === 0) return { before, after: before }
  const now = nowIso()
  const after: Ticket = { ...before, agent_id: null, status, updated_at: now }
  await writeTicket(tx.db, id, { agent_id: null, status, updated_at: now })
  await tx.emit(TicketEvents.updated, { ticket: ticketFacts(after), changed }, scopeOfTicket(after))
  if (status !== from) await statusChanged(tx, from, after, reason)
  return { before, after }
}

export function closeTicket(svc: TicketsService, caller: Caller, id: string, reason: string | undefined) {
  return svc.transaction(caller, async (tx): Promise<Change> => {
    const before = await load(tx, id)
    const from = before.status as TicketStatus
    if (!canClose(from)) throw new TicketErrors.InvalidTransition(from, 'closed')
    const now = nowIso()
    const patch = { status: 'closed', ...stampsFor('closed', before, now), updated_at: now }
    const after: Ticket = { ...before, ...patch }
    await writeTicket(tx.db, id, patch)
    await statusChanged(tx, from, after, reason?.trim() ?? '')
    await closeEffects(tx, after, reason)
    return { before, after }
  })
}

export function addComment(svc: TicketsService, caller: Caller, id: string, body: AddCommentBody) {
  return svc.transaction(caller, async (tx) => {
    const ticket = await load(tx, id)
    const comment = await writeComment(tx, ticket, body.content, body.type ?? 'comment')
    await slaAfterComment(tx, ticket, comment) // an agent's comment may be the first response (SLA)
    return comment
  })
}

async function writeComment(tx: TicketsTx, ticket: Ticket, content: string, type: CommentType): Promise<TicketComment> {
  const comment: TicketComment = {
    id: newId(),
    ticket_id: ticket.id,
    author_id: tx.caller.actor.user_id,
    content,
    type,
    created_at: nowIso(),
  }
  await insertComment(tx.db, comment, ticket)
  await tx.emit(TicketEvents.commented, { ticket_id: ticket.id, comment_id: comment.id, type }, scopeOfTicket(ticket))
  return comment
}

/** Every status change, whichever command made it: its history row and its event. */
async function statusChanged(tx: TicketsTx, from: string, after: Ticket, reason: string) {
  await recordStatus(tx, after, from, reason)
  await tx.emit(
    TicketEvents.statusChanged,
    { ticket_id: after.id, from, to: after.status, resolved_at: after.resolved_at, closed_at: after.closed_at },
    scopeOfTicket(after),
  )
  await slaAfterStatusChange(tx, after) // resolved or closed: settles its SLA violations
}

/** Whichever way a ticket closes (POST /close, or PUT status from resolved): a system comment and the closed event. */
async function closeEffects(tx: TicketsTx, after: Ticket, reason: string | undefined) {
  await writeComment(tx, after, closeComment(reason), 'system')
  await tx.emit(
    TicketEvents.closed,
    { ticket_id: after.id, reason: reason ?? '', closed_at: after.closed_at ?? '' },
    scopeOfTicket(after),
  )
  await scheduleSurvey(tx, after) // the customer's satisfaction survey
}
