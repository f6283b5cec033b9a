import { VoiceEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { findCall } from '../db/calls.repository.ts'
import { insertTranscript } from '../db/transcripts.repository.ts'
import { scopeOfCall } from '../domain/call-record.ts'
import { RealtimeErrors } from '../errors.ts'
import type { CreateTranscriptBody, Transcript } from '../schemas/voice.schemas.ts'
import { postTranscript } from './conversation-link.ts'

/**
 * A transcript of a call of the caller's scope (404 for another's). Interim ones (`finalized: false`) are only
 * kept. A finalized one also becomes a message of the call's conversation — the caller's words as the
 * customer's, the agent's as a system message (conversation-link.ts) — while the call lives: once it ended its
 * conversation is closed, and a late transcript is kept without a message rather than reopening it.
 *
 * The message is posted first (another service), the row written after with its id: if conversations fails,
 * nothing is kept and the client's retry starts clean.
 */
export async function createTranscript(
  svc: RealtimeService,
  caller: Caller,
  body: CreateTranscriptBody,
): Promise<Transcript> {
  const scope = concreteScope(caller)
  const call = await findCall(svc.db, body.call_id, scope)
  if (!call) throw new RealtimeErrors.CallNotFound(body.call_id)
  const id = newId()
  const speaker = body.speaker ?? 'caller'
  let messageId: string | null = null
  if (body.finalized && call.status !== 'ended' && call.conversation_id) {
    messageId = await postTranscript(
      svc,
      { scope: scopeOfCall(call), request_id: caller.request_id },
      call.conversation_id,
      call.customer_id,
      { transcript_id: id, call_id: call.call_id, speaker, content: body.content, language: body.language },
    )
  }
  const transcript: Transcript = {
    id,
    call_id: call.call_id,
    conversation_id: call.conversation_id,
    speaker,
    content: body.content,
    language: body.language,
    finalized: body.finalized,
    message_id: messageId,
    tenant_id: call.tenant_id,
    workspace_id: call.workspace_id,
    created_at: nowIso(),
  }
  return svc.transaction(caller, async (tx) => {
    await insertTranscript(tx.db, { ...transcript, call_ref: call.id })
    if (transcript.finalized) {
      await tx.emit(
        VoiceEvents.transcriptFinalized,
        {
          transcript_id: id,
          call_id: call.call_id,
          conversation_id: call.conversation_id,
          message_id: messageId,
          speaker,
          language: body.language,
        },
        scopeOfCall(call),
      )
    }
    return transcript
  })
}
