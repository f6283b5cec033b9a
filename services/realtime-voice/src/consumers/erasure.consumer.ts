import { ErasureReportEvents, IdentityErasureEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { eraseCalls } from '../db/erasure.repository.ts'

export const ERASURE_CONSUMER = 'realtime-voice-erasure'

/** What realtime-voice emits besides its own events: its erasure reports. */
export const VoiceErasureEvents = { reported: ErasureReportEvents.realtime } as const

/**
 * The right to erasure, realtime-voice's part: the person's voice calls, recordings and transcripts
 * (db/erasure.repository.ts), then `realtime.erasure.reported`. Applied once, in the inbox's transaction.
 */
export const erasureConsumer: ConsumerDef<RealtimeService> = {
  durable: ERASURE_CONSUMER,
  stream: 'IDENTITY',
  subjects: [IdentityErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
      const counts = await eraseCalls(tx.db, [e.user_id, e.customer_id], scope)
      await tx.emit(
        VoiceErasureEvents.reported,
        {
          erasure_id: e.erasure_id,
          customer_id: e.customer_id,
          service: 'realtime-voice',
          counts,
          completed_at: new Date().toISOString(),
        },
        scope,
      )
    }),
  ],
}
