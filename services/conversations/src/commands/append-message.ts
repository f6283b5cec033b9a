import { ConversationEvents } from '@switchboard/contracts'
import { newId, nowIso, type Tx } from '@switchboard/platform'
import type { ConversationsDatabase } from '../db/database.ts'
import { insertMessage } from '../db/messages.repository.ts'
import type { SessionRow } from '../db/sessions.repository.ts'
import { messageFacts, scopeOfSession } from '../domain/session-facts.ts'
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
 */
export async function appendMessage(
  tx: Tx<ConversationsDatabase>,
  session: SessionRow,
  input: NewMessage,
): Promise<Message> {
  const created_at = nowIso()
  const counted = await tx.db
    .updateTable('sessions')
    .set((eb) => ({
      message_count: eb('message_count', '+', 1),
      last_message_at: created_at,
      updated_at: created_at,
    }))
    .where('id', '=', session.id)
    .returning('message_count')
    .executeTakeFirstOrThrow()
  session.message_count = Number(counted.message_count)
  session.last_message_at = created_at
  session.updated_at = created_at
  return appendCounted(tx, session, input)
}

/**
 * `appendMessage` for a session whose count this message has raised already, in this transaction (countMessage:
 * the locking update that returns the row): the message is its `message_count`th, written at its
 * `last_message_at`, and its event.
 */
export async function appendCounted(
  tx: Tx<ConversationsDatabase>,
  session: SessionRow,
  input: NewMessage,
): Promise<Message> {
  const message: Message = {
    id: newId(),
    session_id: session.id,
    sender: input.sender,
    sender_id: input.sender_id,
    kind: input.kind ?? (input.sender === 'system' ? 'system' : 'text'),
    content: input.content,
    metadata: input.metadata ?? {},
    visibility: input.visibility ?? 'public',
    seq: Number(session.message_count),
    created_at: session.last_message_at ?? nowIso(),
  }
  await insertMessage(tx.db, message, session)
  // `seq` travels with the event: readers resume and de-duplicate by it; `visibility` tells them who may see it
  await tx.emit(
    ConversationEvents.messageCreated,
    messageFacts(message, { status: session.status as Session['status'], agent_id: session.agent_id }),
    scopeOfSession(session),
  )
  return message
}
