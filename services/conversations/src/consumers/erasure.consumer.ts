import { ErasureReportEvents, IdentityErasureEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import {
  deleteUploadRows,
  forgetProjections,
  sessionIdsOf,
  ticketIdsOf,
  tombstoneSessions,
  uploadIdsOf,
} from '../db/erasure.repository.ts'

export const ERASURE_DURABLE = 'conversations-erasure'

/** What conversations emits besides its own events: its erasure reports. */
export const ConversationErasureEvents = { reported: ErasureReportEvents.conversations } as const

/**
 * The right to erasure, conversations' part: the person's sessions keep their messages as tombstones (counts, seq
 * and times stay), their uploads — attachments and voice recordings — go with their bytes, the projections forget
 * the name and ticket titles; then `conversations.erasure.reported` says what changed. All in the inbox's
 * transaction, so a kill -9 half way replays it whole; a second delivery is skipped. File-store bytes are deleted
 * inside it too: a retry after a rollback finds the rows again and deletes what is left.
 */
export const erasureConsumer: ConsumerDef<ConversationsService> = {
  durable: ERASURE_DURABLE,
  stream: 'IDENTITY',
  subjects: [IdentityErasureEvents.requested.type],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(IdentityErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
      const person = {
        ids: [e.user_id, e.customer_id],
        scope,
        at: new Date(envelope.occurred_at).toISOString(),
        version_id: envelope.id,
      }
      const sessions = await sessionIdsOf(tx.db, person)
      const tickets = await ticketIdsOf(tx.db, person)
      const uploads = await uploadIdsOf(tx.db, person, sessions, tickets)
      const counts = { ...(await tombstoneSessions(tx.db, sessions)), ...(await forgetProjections(tx.db, person)) }
      counts.uploads_deleted = await deleteUploadRows(tx.db, uploads)
      if (svc.blobs.kind === 'file') for (const id of uploads) await svc.blobs.delete(id)
      await tx.emit(
        ConversationErasureEvents.reported,
        {
          erasure_id: e.erasure_id,
          customer_id: e.customer_id,
          service: 'conversations',
          counts,
          completed_at: new Date().toISOString(),
        },
        scope,
      )
    }),
  ],
}
