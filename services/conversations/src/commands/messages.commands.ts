import { ConversationEvents } from '@switchboard/contracts'
import { type Caller, inScope, newId, nowIso, type Scope } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { insertSessionIfAbsent } from '../db/session-queries.repository.ts'
import { findSessionRowForUpdate, type SessionRow, toSession, updateSession } from '../db/sessions.repository.ts'
import { messageProblem, subjectFrom } from '../domain/message-rules.ts'
import { scopeOfSession, sessionFacts } from '../domain/session-facts.ts'
import { admission, reopenPatch } from '../domain/session-rules.ts'
import { issueVisitorCredential } from '../domain/visitor-credential.ts'
import { ConversationErrors } from '../errors.ts'
import type { InternalMessageBody, InternalMessageResult } from '../schemas/internal.schemas.ts'
import type { PostMessageBody } from '../schemas/messages.schemas.ts'
import type { Message, Session } from '../schemas/sessions.schemas.ts'
import { joinRole, mayPost, mayRead, type Party, postGuard } from './access.ts'
import { announceMessage, appendMessage, postInOneStatement, writeCounted } from './append-message.ts'

/** Size and kind rules, before any row is touched: 413 past the content bound, 400 for metadata or kind. */
export function checkMessage(
  svc: Pick<ConversationsService, 'config'>,
  m: { sender: Message['sender']; kind?: Message['kind']; content: string; metadata?: Record<string, unknown> },
): void {
  const p = messageProblem(svc.config.messages, m)
  if (!p) return
  if (p.problem === 'content_too_large') throw new ConversationErrors.MessageTooLarge(p.limit)
  if (p.problem === 'metadata_too_large') throw new ConversationErrors.MetadataTooLarge(p.limit)
  throw new ConversationErrors.MessageKind(p.kind, p.sender)
}

export interface Posted {
  session: Session
  message: Message
}

/**
 * An agent's reply (`POST /api/omni/sessions/:id/messages`): only in a session assigned to them unless they
 * supervise (admins and services may always); never in a closed one. With `internal: true` a note instead
 * (README "Internal notes"): staff only, by any agent of the scope, closed sessions included.
 */
export async function postAgentMessage(
  svc: ConversationsService,
  caller: Caller,
  id: string,
  body: PostMessageBody,
): Promise<Posted> {
  const { internal, ...m } = body
  checkMessage(svc, { sender: 'agent', ...m })
  const input = {
    sender: 'agent' as const,
    sender_id: caller.actor.user_id,
    kind: m.kind,
    content: m.content,
    metadata: m.metadata,
    visibility: internal === true ? ('internal' as const) : ('public' as const),
  }
  // PostgreSQL: one statement, the checks below as its conditions; refused (or any doubt), the transaction says why.
  // A note needs no condition on the session (any staff of the scope, closed sessions too).
  const p = caller.principal
  const guard = !p ? undefined : internal === true ? (mayRead(p) ? {} : undefined) : postGuard(p)
  if (svc.dialect === 'postgres' && guard) {
    const posted = await postInOneStatement(svc, caller, id, input, { ...guard, open: internal !== true })
    if (posted) return { session: toSession(posted.session), message: posted.message }
  }
  return svc.transaction(caller, async (tx) => {
    // written first, in the statement that counts it and locks the session; a refusal below throws, and the
    // transaction takes both back
    const { session: row, message } = await writeCounted(tx, id, input)
    if (!caller.principal) throw new ConversationErrors.NotAssignedToYou(id)
    if (internal === true) {
      // a note is for colleagues: any staff of the scope may leave one, in a closed session too (a wrap-up)
      if (!mayRead(caller.principal)) throw new ConversationErrors.SessionNotFound(id)
    } else {
      if (!mayPost(caller.principal, row)) throw new ConversationErrors.NotAssignedToYou(id)
      if (admission('agent', row) !== 'post') throw new ConversationErrors.SessionClosed(id)
    }
    await announceMessage(tx, row, message)
    return { session: toSession(row), message }
  })
}

/** Who writes an internal message, from the fields its sender allows. */
type Writer =
  | { sender: 'customer'; party: Extract<Party, { kind: 'customer' | 'visitor' }> | { kind: 'new_visitor' } }
  | { sender: 'ai' | 'system'; sender_id: string | null }

function writerOf(body: InternalMessageBody, caller: Caller): Writer {
  if (body.sender === 'customer') {
    if (body.sender_id !== undefined) throw new ConversationErrors.BodyField('sender_id', 'not for sender customer')
    if (body.customer_id !== undefined && body.visitor_credential !== undefined) {
      throw new ConversationErrors.BodyField('visitor_credential', 'a customer (customer_id) has no visitor credential')
    }
    if (body.customer_id !== undefined) {
      return { sender: 'customer', party: { kind: 'customer', customer_id: body.customer_id } }
    }
    if (body.visitor_credential !== undefined) {
      return { sender: 'customer', party: { kind: 'visitor', credential: body.visitor_credential } }
    }
    return { sender: 'customer', party: { kind: 'new_visitor' } }
  }
  for (const field of ['customer_id', 'visitor_credential'] as const) {
    if (body[field] !== undefined) throw new ConversationErrors.BodyField(field, 'only for sender customer')
  }
  const sender_id = body.sender_id ?? (body.sender === 'ai' ? caller.actor.user_id : null)
  return { sender: body.sender, sender_id }
}

/**
 * The scope a session is looked for and created in: the caller's, or — for an unscoped caller (a hub serving
 * every tenant's widgets) — the one the body declares. A body naming another scope than a scoped caller's is 403.
 */
function targetScope(caller: Caller, body: InternalMessageBody): Scope {
  for (const key of ['tenant_id', 'workspace_id'] as const) {
    const named = body[key]
    if (named !== undefined && caller.scope[key] && named !== caller.scope[key]) {
      throw new ConversationErrors.ScopeMismatch(key, named)
    }
  }
  return {
    tenant_id: caller.scope.tenant_id || body.tenant_id || '',
    workspace_id: caller.scope.workspace_id || body.workspace_id || '',
  }
}

/**
 * A customer, visitor, AI or system message from the realtime hub or another service. A customer's first message
 * to an unknown id creates the session in the target scope (an anonymous one with a visitor credential, returned
 * once). To an existing session a customer must be its owner and a visitor must hold its credential — anything
 * else is "not found", as the id alone proves nothing. A customer message reopens a closed session; the AI never
 * answers a session an agent handles (409).
 *
 * A scoped caller looks only within its scope: another tenant's session is exactly as missing as no session
 * (404; ids are unique across scopes, so a first message cannot take that id either). Only an unscoped caller,
 * who may read every tenant anyway, is told that the id belongs to another workspace (409).
 */
export function receiveMessage(
  svc: ConversationsService,
  caller: Caller,
  sessionId: string,
  body: InternalMessageBody,
): Promise<InternalMessageResult> {
  checkMessage(svc, body)
  const writer = writerOf(body, caller)
  const target = targetScope(caller, body)
  // The caller's own scope bounds the look-up (NO_SCOPE for an unscoped one): nothing outside it is ever seen.
  const lookIn = caller.scope
  return svc.transaction(caller, async (tx) => {
    let row = await findSessionRowForUpdate(tx, sessionId, lookIn)
    let visitor: InternalMessageResult['visitor'] = null
    let created = false
    if (!row && writer.sender === 'customer' && writer.party.kind !== 'visitor') {
      const issued = writer.party.kind === 'new_visitor' ? issueVisitorCredential() : undefined
      const fresh = newSessionRow(sessionId, concreteTarget(target), body, {
        customer_id: writer.party.kind === 'customer' ? writer.party.customer_id : null,
        visitor_id: issued ? newId() : null,
        visitor_secret_hash: issued?.hash ?? null,
      })
      if (await insertSessionIfAbsent(tx.db, fresh)) {
        row = fresh
        created = true
        if (issued && fresh.visitor_id) visitor = { visitor_id: fresh.visitor_id, credential: issued.credential }
        await tx.emit(ConversationEvents.sessionCreated, sessionFacts(toSession(row)), scopeOfSession(row))
      } else {
        // created meanwhile by a concurrent first message (or the id is another scope's: then still not found)
        row = await findSessionRowForUpdate(tx, sessionId, lookIn)
      }
    }
    if (!row) throw new ConversationErrors.SessionNotFound(sessionId)
    if (!created) {
      // only reachable for an unscoped caller: a scoped one never sees a row outside its scope
      if (!inScope(row, target)) throw new ConversationErrors.SessionScopeConflict(sessionId)
      if (!writerMayPost(row, writer)) throw new ConversationErrors.SessionNotFound(sessionId)
    }

    const step = admission(body.sender, row)
    if (step === 'closed') throw new ConversationErrors.SessionClosed(sessionId)
    if (step === 'agent_handles') throw new ConversationErrors.AgentHandles(sessionId)
    if (step === 'reopen') {
      const patch = reopenPatch(nowIso())
      Object.assign(row, patch)
      await updateSession(tx.db, row.id, patch)
      await tx.emit(ConversationEvents.sessionReopened, sessionFacts(toSession(row)), scopeOfSession(row))
    }
    const message = await appendMessage(tx, row, {
      sender: body.sender,
      sender_id: senderIdOf(row, writer),
      kind: body.kind,
      content: body.content,
      metadata: body.metadata,
    })
    return { session: toSession(row), message, created, reopened: step === 'reopen', visitor }
  })
}

function concreteTarget(target: Scope): Scope {
  if (!target.tenant_id) throw new ConversationErrors.BodyField('tenant_id', 'required to create a session here')
  if (!target.workspace_id) throw new ConversationErrors.BodyField('workspace_id', 'required to create a session here')
  return target
}

function newSessionRow(
  id: string,
  scope: Scope,
  body: InternalMessageBody,
  who: Pick<SessionRow, 'customer_id' | 'visitor_id' | 'visitor_secret_hash'>,
): SessionRow {
  const now = nowIso()
  const textual = body.kind === undefined || body.kind === 'text'
  return {
    id,
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    status: 'active',
    channel: body.channel ?? 'web',
    // the console lists sessions by subject: a customer's first words say more than nothing
    subject: body.subject?.trim() || (textual ? subjectFrom(body.content) : ''),
    ...who,
    agent_id: null,
    ticket_id: null,
    priority: body.priority ?? 'normal',
    message_count: 0,
    started_at: now,
    last_message_at: null,
    ended_at: null,
    updated_at: now,
  }
}

/** Customers post to their own sessions, visitors with the credential; the AI and the system to any. */
function writerMayPost(row: SessionRow, writer: Writer): boolean {
  if (writer.sender !== 'customer') return true
  if (writer.party.kind === 'new_visitor') return false
  return joinRole(row, writer.party) !== undefined
}

function senderIdOf(row: SessionRow, writer: Writer): string | null {
  if (writer.sender !== 'customer') return writer.sender_id
  return writer.party.kind === 'customer' ? writer.party.customer_id : row.visitor_id
}
