import { ConversationEvents } from '@switchboard/contracts'
import { type Caller, newId, nowIso, type Tx } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import { insertCountedMessage, insertMessage, postCountedMessage } from '../db/messages.repository.ts'
import { countMessage, countMessageIn, type SessionRow } from '../db/sessions.repository.ts'
import { messageFacts, scopeOfSession } from '../domain/session-facts.ts'
import { ConversationErrors } from '../errors.ts'
import type { Message, Session } from '../schemas/sessions.schemas.ts'

export interface NewMessage {
  sender: Message['sender']
  sender_id: string | null
  kind?: Message['kind']
  content: string
  metadata?: Record<string, unknown>
  /** `internal` for a staff note (README "Internal notes"); public by default */
  visibility?: Message['visibility']
}

/**
 * The one way a message enters a session, whoever writes it (customer, agent, AI, the service itself): the row,
 * the session's counters and `conversations.message.created`, in the caller's transaction. `session` is the row
 * as the caller has it (locked and already changed in this transaction, if it changed); the event carries it.
 *
 * Every caller holds the session's row lock (lockSession, the queue's lockQueuedSession, or a row it inserted in
 * this transaction), so the message's `seq` — the session's `message_count + 1`, read back from the very update
 * that raises it — follows commit order on any number of replicas; `(session_id, seq)` is unique besides.
 * A caller that checks the session only after counting uses writeCounted instead.
 */
export async function appendMessage(
  tx: Tx<ConversationsDatabase>,
  session: SessionRow,
  input: NewMessage,
): Promise<Message> {
  const created_at = nowIso()
  const seq = await countMessage(tx.db, session.id, created_at)
  const message = newMessage(session.id, input, seq, created_at)
  await insertMessage(tx.db, message, session)
  session.message_count = message.seq
  session.last_message_at = created_at
  session.updated_at = created_at
  await announceMessage(tx, session, message)
  return message
}

/**
 * A message written before its session is checked: the session of the caller's scope counts it (its row locked
 * until commit, as with lockSession) and the message is stored — on PostgreSQL in ONE statement (the update of the
 * session and the insert of the message, `WITH … UPDATE … RETURNING` feeding `INSERT … SELECT`), on SQLite in two.
 * The caller then checks the session as it now is, throws to refuse (the transaction takes back the count and the
 * message: nothing else saw them) or announces it (announceMessage). Another scope's session is not found.
 */
export async function writeCounted(
  tx: Tx<ConversationsDatabase>,
  id: string,
  input: NewMessage,
): Promise<{ session: SessionRow; message: Message }> {
  const created_at = nowIso()
  const message = newMessage(id, input, 0, created_at)
  const session =
    tx.dialect === 'postgres'
      ? await insertCountedMessage(tx.db, message, tx.caller.scope)
      : await countMessageIn(tx, id, tx.caller.scope, created_at)
  if (!session) throw new ConversationErrors.SessionNotFound(id)
  message.seq = Number(session.message_count)
  if (tx.dialect !== 'postgres') await insertMessage(tx.db, message, session)
  return { session, message }
}

/**
 * A message posted in ONE statement with no transaction around it (PostgreSQL; one round trip where BEGIN, the
 * statement, the outbox row and COMMIT took four): the session of the caller's scope counts it, the message is stored
 * and `conversations.message.created` written to the outbox — only where `guard` lets it (the session's agent, a
 * session not closed), else nothing at all. Undefined when nothing was written: the caller then goes the transactional
 * way (writeCounted and its checks), which says why — or posts after all, had the session changed meanwhile.
 */
export async function postInOneStatement(
  svc: ConversationsService,
  caller: Caller,
  id: string,
  input: NewMessage,
  guard: { agent_id?: string; open: boolean },
): Promise<{ session: SessionRow; message: Message } | undefined> {
  const message = newMessage(id, input, 0, nowIso())
  // the statement completes the event from the session it counts: the scope, `seq`, its status and agent
  const placeholder = messageFacts({ ...message, seq: 1 }, { status: 'active', agent_id: null })
  const { row, written } = svc.outboxRow(caller, ConversationEvents.messageCreated, placeholder)
  const session = await postCountedMessage(svc.db, message, caller.scope, guard, row)
  if (!session) return undefined
  written()
  message.seq = Number(session.message_count)
  return { session, message }
}

/** `conversations.message.created` for a message stored in this transaction, with its session as it now is. */
export async function announceMessage(tx: Tx<ConversationsDatabase>, session: SessionRow, message: Message) {
  // `seq` travels with the event: readers resume and de-duplicate by it; `visibility` tells them who may see it
  await tx.emit(
    ConversationEvents.messageCreated,
    messageFacts(message, { status: session.status as Session['status'], agent_id: session.agent_id }),
    scopeOfSession(session),
  )
}

function newMessage(sessionId: string, input: NewMessage, seq: number, created_at: string): Message {
  return {
    id: newId(),
    session_id: sessionId,
    sender: input.sender,
    sender_id: input.sender_id,
    kind: input.kind ?? (input.sender === 'system' ? 'system' : 'text'),
    content: input.content,
    metadata: input.metadata ?? {},
    visibility: input.visibility ?? 'public',
    seq,
    created_at,
  }
}
