import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { findCallForUpdate } from '../db/calls.repository.ts'
import { insertMediaEvent, lastMediaEvent, type StoredMediaEvent } from '../db/media-events.repository.ts'
import { recordingOfCall } from '../db/recordings.repository.ts'
import { eventIdOf } from '../domain/call-state.ts'
import { isMediaEventKind, isMediaProtocol } from '../domain/protocols.ts'
import { RealtimeErrors, VoiceErrors } from '../errors.ts'
import type { MediaEventPayload } from '../schemas/voice.schemas.ts'
import { isMediaReplay } from './media-replay.ts'

export interface MediaEventInput {
  protocol: string
  kind: string
  payload: MediaEventPayload
}

/**
 * A media event of a call (`POST /api/voice/protocols/:protocol/media-events/:event`): 404 for a protocol that is
 * not a media one, 400 for an unknown event, 404 for a call outside the caller's scope. Media events observe the
 * media plane and do not move the call: they are kept whatever the call's status (media may close after hangup).
 */
export async function recordMediaEvent(
  svc: RealtimeService,
  caller: Caller,
  input: MediaEventInput,
): Promise<{ event: StoredMediaEvent; replayed: boolean }> {
  if (!isMediaProtocol(input.protocol)) throw new RealtimeErrors.UnknownProtocol(input.protocol)
  if (!isMediaEventKind(input.kind)) throw new RealtimeErrors.UnknownEvent(input.kind)
  const scope = concreteScope(caller)
  const p = input.payload
  return svc.transaction(caller, async (tx) => {
    // the call's lock orders its media events too, so sequences do not race
    const call = await findCallForUpdate(tx, p.call_id, scope)
    if (!call) throw new RealtimeErrors.CallNotFound(p.call_id)
    // the recording it names is this call's (hence of its scope): a media event never points at another's
    if (p.recording_id !== undefined && !(await recordingOfCall(tx.db, p.recording_id, call.id))) {
      throw new VoiceErrors.UnknownRecording(p.recording_id, call.call_id)
    }
    const given = p.occurred_at === undefined ? undefined : new Date(p.occurred_at).toISOString()
    const incoming = { track_id: p.track_id ?? null, recording_id: p.recording_id ?? null, occurred_at: given }
    const last = await lastMediaEvent(tx.db, call.id, input.kind)
    if (isMediaReplay(incoming, last)) return { event: last!, replayed: true }
    const seq = (last?.seq ?? 0) + 1
    const event: StoredMediaEvent = {
      id: newId(),
      tenant_id: call.tenant_id,
      workspace_id: call.workspace_id,
      event_id: eventIdOf(input.protocol, input.kind, call.call_id, seq),
      call_ref: call.id,
      call_id: call.call_id,
      protocol: input.protocol,
      kind: input.kind,
      seq,
      track_id: incoming.track_id,
      recording_id: incoming.recording_id,
      conversation_id: call.conversation_id,
      occurred_at: given ?? nowIso(),
      occurred_at_given: given !== undefined,
      metadata: p.metadata ?? {},
      created_at: nowIso(),
    }
    await insertMediaEvent(tx.db, event)
    return { event, replayed: false }
  })
}
