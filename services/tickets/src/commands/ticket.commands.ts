import { isDeepStrictEqual } from 'node:util'
import { concreteScope, type Dialect, nowIso, type Outbox, scopeOf } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { insertComment } from '../db/comments.repository.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { findTicket, insertTicket, updateTicket as writeTicket } from '../db/tickets.repository.ts'
import { closeComment, normalizeTags, TICKET_DEFAULTS } from '../domain/ticket.ts'
import { canClose, checkTransition, stampsFor, statusAfterAssign, type TicketStatus } from '../domain/ticket-status.ts'
import { TicketErrors } from '../errors.ts'
import { queueTicketEvent, ticketFacts } from '../events/publish.ts'
import type { AddCommentBody, CommentType, TicketComment } from '../schemas/comments.schemas.ts'
import type { CreateTicketBody, Ticket, UpdateTicketBody } from '../schemas/tickets.schemas.ts'

/** What the commands need from the app: the store, its dialect and the outbox. */
export interface TicketContext {
  db: Kysely<TicketsDatabase>
  dialect: Dialect
  outbox: Outbox
}

export const ticketContext = (app: FastifyInstance): TicketContext => ({
  db: app.db as Kysely<TicketsDatabase>,
  dialect: app.dbDialect,
  outbox: app.outbox,
})

export interface Change {
  before: Ticket
  after: Ticket
}

type Trx = Transaction<TicketsDatabase>

/**
 * Each command writes its rows and its events in one transaction, then kicks the relay: an event is
 * published only for a committed change, and a committed change always has its event.
 */
async function inTransaction<T>(ctx: TicketContext, work: (trx: Trx) => Promise<T>): Promise<T> {
  const result = await ctx.db.transaction().execute(work)
  ctx.outbox.kick()
  return result
}

async function load(ctx: TicketContext, trx: Trx, request: FastifyRequest, id: string): Promise<Ticket> {
  const ticket = await findTicket(trx, id, scopeOf(request), { forUpdate: ctx.dialect === 'postgres' })
  if (!ticket) throw new TicketErrors.NotFound(id)
  return ticket
}

export function createTicket(ctx: TicketContext, request: FastifyRequest, body: CreateTicketBody): Promise<Ticket> {
  const scope = concreteScope(request)
  const now = nowIso()
  const ticket: Ticket = {
    id: uuidv7(),
    title: body.title.trim(),
    description: body.description ?? '',
    customer_id: body.customer_id,
    agent_id: null,
    session_id: body.session_id ?? null,
    category: body.category ?? TICKET_DEFAULTS.category,
    priority: body.priority ?? TICKET_DEFAULTS.priority,
    status: TICKET_DEFAULTS.status,
    source: body.source ?? TICKET_DEFAULTS.source,
    tags: normalizeTags(body.tags ?? []),
    custom_fields: body.custom_fields ?? {},
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    created_at: now,
    updated_at: now,
    resolved_at: null,
    closed_at: null,
  }
  return inTransaction(ctx, async (trx) => {
    await insertTicket(trx, ticket)
    await queueTicketEvent(ctx.outbox, trx, request, ticket, 'created', ticketFacts(ticket))
    return ticket
  })
}

const EDITABLE = ['title', 'description', 'category', 'priority', 'tags', 'custom_fields'] as const

export function updateTicket(
  ctx: TicketContext,
  request: FastifyRequest,
  id: string,
  body: UpdateTicketBody,
): Promise<Change> {
  return inTransaction(ctx, async (trx) => {
    const before = await load(ctx, trx, request, id)
    const now = nowIso()
    const patch: Partial<Ticket> = {}
    for (const key of EDITABLE) {
      const value = key === 'tags' && body.tags ? normalizeTags(body.tags) : body[key]
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
    const changed = Object.keys(patch)
    // Nothing differs: no write, no event, updated_at untouched (a PUT is idempotent).
    if (changed.length === 0) return { before, after: before }
    const after: Ticket = { ...before, ...patch, updated_at: now }
    await writeTicket(trx, id, { ...patch, updated_at: now })
    await queueTicketEvent(ctx.outbox, trx, request, after, 'updated', { ticket: ticketFacts(after), changed })
    if (patch.status) await statusChanged(ctx, trx, request, from, after)
    if (patch.status === 'closed') await closeEffects(ctx, trx, request, after, undefined)
    return { before, after }
  })
}

export function assignTicket(ctx: TicketContext, request: FastifyRequest, id: string, agentId: string) {
  return inTransaction(ctx, async (trx): Promise<Change> => {
    const before = await load(ctx, trx, request, id)
    const from = before.status as TicketStatus
    const status = statusAfterAssign(from)
    if (!status) throw new TicketErrors.NotAssignable(from)
    const changed = [...(before.agent_id !== agentId ? ['agent_id'] : []), ...(status !== from ? ['status'] : [])]
    if (changed.length === 0) return { before, after: before }
    const now = nowIso()
    const after: Ticket = { ...before, agent_id: agentId, status, updated_at: now }
    await writeTicket(trx, id, { agent_id: agentId, status, updated_at: now })
    await queueTicketEvent(ctx.outbox, trx, request, after, 'updated', { ticket: ticketFacts(after), changed })
    if (status !== from) await statusChanged(ctx, trx, request, from, after)
    return { before, after }
  })
}

export function closeTicket(ctx: TicketContext, request: FastifyRequest, id: string, reason: string | undefined) {
  return inTransaction(ctx, async (trx): Promise<Change> => {
    const before = await load(ctx, trx, request, id)
    const from = before.status as TicketStatus
    if (!canClose(from)) throw new TicketErrors.InvalidTransition(from, 'closed')
    const now = nowIso()
    const patch = { status: 'closed', ...stampsFor('closed', before, now), updated_at: now }
    const after: Ticket = { ...before, ...patch }
    await writeTicket(trx, id, patch)
    await statusChanged(ctx, trx, request, from, after)
    await closeEffects(ctx, trx, request, after, reason)
    return { before, after }
  })
}

export function addComment(ctx: TicketContext, request: FastifyRequest, id: string, body: AddCommentBody) {
  return inTransaction(ctx, async (trx) => {
    const ticket = await load(ctx, trx, request, id)
    return writeComment(ctx, trx, request, ticket, body.content, body.type ?? 'comment')
  })
}

async function writeComment(
  ctx: TicketContext,
  trx: Trx,
  request: FastifyRequest,
  ticket: Ticket,
  content: string,
  type: CommentType,
): Promise<TicketComment> {
  const comment: TicketComment = {
    id: uuidv7(),
    ticket_id: ticket.id,
    author_id: request.principal.user_id,
    content,
    type,
    created_at: nowIso(),
  }
  await insertComment(trx, comment, ticket)
  await queueTicketEvent(ctx.outbox, trx, request, ticket, 'commented', {
    ticket_id: ticket.id,
    comment_id: comment.id,
    type,
  })
  return comment
}

function statusChanged(ctx: TicketContext, trx: Trx, request: FastifyRequest, from: string, after: Ticket) {
  return queueTicketEvent(ctx.outbox, trx, request, after, 'statusChanged', {
    ticket_id: after.id,
    from,
    to: after.status,
    resolved_at: after.resolved_at,
    closed_at: after.closed_at,
  })
}

/** Whichever way a ticket closes (POST /close, or PUT status from resolved): a system comment and the closed event. */
async function closeEffects(
  ctx: TicketContext,
  trx: Trx,
  request: FastifyRequest,
  after: Ticket,
  reason: string | undefined,
) {
  await writeComment(ctx, trx, request, after, closeComment(reason), 'system')
  await queueTicketEvent(ctx.outbox, trx, request, after, 'closed', {
    ticket_id: after.id,
    reason: reason ?? '',
    closed_at: after.closed_at ?? '',
  })
}
