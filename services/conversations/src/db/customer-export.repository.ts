import type { CustomerExportPart } from '@switchboard/contracts'
import { fromJson, type Scope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConversationsDatabase } from './database.ts'
import { sessionIdsOf, ticketIdsOf, uploadIdsOf } from './erasure.repository.ts'

/** What conversations holds of a person: their sessions with every message, and their uploads' metadata. */
export async function customerExport(
  db: Kysely<ConversationsDatabase>,
  ids: string[],
  scope: Scope,
): Promise<CustomerExportPart> {
  const person = { ids, scope, at: '', version_id: '' }
  const sessions = await sessionIdsOf(db, person)
  const uploads = await uploadIdsOf(db, person, sessions, await ticketIdsOf(db, person))
  if (sessions.length === 0 && uploads.length === 0) return { sessions: [], messages: [], uploads: [] }
  const none = ['']
  return {
    sessions: await db
      .selectFrom('sessions')
      .select(['id', 'status', 'channel', 'subject', 'customer_id', 'agent_id', 'ticket_id', 'priority'])
      .select(['message_count', 'started_at', 'last_message_at', 'ended_at'])
      .where('id', 'in', sessions.length ? sessions : none)
      .orderBy('started_at')
      .execute(),
    messages: (
      await db
        .selectFrom('messages')
        .select(['id', 'session_id', 'seq', 'visibility', 'sender', 'sender_id', 'kind', 'content', 'metadata'])
        .select('created_at')
        .where('session_id', 'in', sessions.length ? sessions : none)
        .orderBy('session_id')
        .orderBy('seq')
        .execute()
    ).map((m) => ({ ...m, metadata: fromJson(m.metadata, {}) })),
    uploads: await db
      .selectFrom('uploads')
      .select(['id', 'session_id', 'ticket_id', 'owner_id', 'filename', 'content_type', 'size', 'sha256', 'created_at'])
      .where('id', 'in', uploads.length ? uploads : none)
      .execute(),
  }
}
