import { VoiceEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso, type Tx } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { findCall, findCallForUpdate } from '../db/calls.repository.ts'
import type { RealtimeDatabase } from '../db/database.ts'
import { recordingFacts, recordingView } from '../db/recording-view.ts'
import {
  activeRecording,
  findRecording,
  findRecordingForUpdate,
  insertRecording,
  type RecordingRow,
  updateRecording,
} from '../db/recordings.repository.ts'
import { isUniqueViolation } from '../db/unique-violation.ts'
import { type Call, scopeOfCall } from '../domain/call-record.ts'
import { RealtimeErrors, VoiceErrors } from '../errors.ts'
import type { AudioFile } from '../recording/audio-upload.ts'
import { type RecordingProvider, recordingProviderOf } from '../recording/recording-provider.ts'
import type { Recording, StartRecordingBody } from '../schemas/voice.schemas.ts'

export interface RecordingChange {
  before: Recording
  after: Recording
}

/** Start, stop and audio need the provider: with VOICE_RECORDING_PROVIDER=disabled they are 503 before anything. */
function providerOf(svc: RealtimeService): RecordingProvider {
  const provider = recordingProviderOf(svc)
  if (!provider) throw new RealtimeErrors.RecordingDisabled()
  return provider
}

/**
 * Starts recording a living call of the caller's scope (404 for another's, 409 once it ended or while another
 * recording of it runs). The provider starts first; if the row then cannot be written, it is told to stop.
 */
export async function startRecording(
  svc: RealtimeService,
  caller: Caller,
  body: StartRecordingBody,
): Promise<Recording> {
  const provider = providerOf(svc)
  if (body.provider !== undefined && body.provider !== provider.name) {
    throw new VoiceErrors.BodyField(
      'provider',
      `${body.provider} is not the configured recording provider (${provider.name})`,
    )
  }
  const scope = concreteScope(caller)
  const call = await findCall(svc.db, body.call_id, scope)
  if (!call) throw new RealtimeErrors.CallNotFound(body.call_id)
  if (call.status === 'ended') throw new VoiceErrors.CallEnded(call.call_id)
  const running = await activeRecording(svc.db, call.id)
  if (running) throw new VoiceErrors.RecordingActive(call.call_id, running.id)
  const id = newId()
  const target = {
    recording_id: id,
    call_id: call.call_id,
    conversation_id: call.conversation_id,
    scope,
    request_id: caller.request_id,
  }
  const { provider_ref } = await provider.start(target)
  try {
    return await svc.transaction(caller, async (tx) => {
      const locked = await findCallForUpdate(tx, body.call_id, scope)
      if (!locked) throw new RealtimeErrors.CallNotFound(body.call_id)
      if (locked.status === 'ended') throw new VoiceErrors.CallEnded(locked.call_id)
      const now = nowIso()
      const row: RecordingRow = {
        id,
        tenant_id: locked.tenant_id,
        workspace_id: locked.workspace_id,
        call_ref: locked.id,
        call_id: locked.call_id,
        conversation_id: locked.conversation_id,
        provider: provider.name,
        provider_ref,
        status: 'recording',
        started_at: now,
        stopped_at: null,
        upload_id: null,
        audio_content_type: null,
        audio_size: null,
        audio_sha256: null,
        created_at: now,
        updated_at: now,
      }
      await insertRecording(tx.db, row)
      await tx.emit(VoiceEvents.recordingStarted, recordingFacts(row), scopeOfCall(row))
      return recordingView(row)
    })
  } catch (err) {
    await provider
      .stop({ ...target, provider_ref })
      .catch((e) => svc.log.warn({ err: e, recording_id: id }, 'recording left started'))
    // two starts raced: the partial unique index let one through
    if (isUniqueViolation(err)) throw new VoiceErrors.RecordingActive(call.call_id, '(started concurrently)')
    throw err
  }
}

/** Stops a recording of the caller's scope (an unscoped admin's: any): 404 for another's, 409 when stopped already. */
export async function stopRecording(svc: RealtimeService, caller: Caller, id: string): Promise<RecordingChange> {
  const provider = providerOf(svc)
  const current = await findRecording(svc.db, id, caller.scope)
  if (!current) throw new RealtimeErrors.RecordingNotFound(id)
  if (current.status === 'stopped') throw new VoiceErrors.RecordingStopped(id)
  // the provider first: if it cannot stop, the recording is still running and says so
  await provider.stop({ ...targetOf(current, caller), provider_ref: current.provider_ref })
  return svc.transaction(caller, async (tx) => {
    const row = await findRecordingForUpdate(tx, id, caller.scope)
    if (!row) throw new RealtimeErrors.RecordingNotFound(id)
    if (row.status === 'stopped') throw new VoiceErrors.RecordingStopped(id)
    const after = await markStopped(tx, row, nowIso())
    return { before: recordingView(row), after: recordingView(after) }
  })
}

/** At hangup, in its transaction: the call's running recording stops when the call does. */
export async function stopActiveRecording(
  tx: Tx<RealtimeDatabase>,
  call: Call,
  at: string,
): Promise<RecordingRow | undefined> {
  const row = await activeRecording(tx.db, call.id)
  if (!row) return undefined
  return markStopped(tx, row, at < row.started_at ? row.started_at : at)
}

/**
 * After the hangup committed: the provider hears that the recording stopped (nothing to tell for `local`). The
 * hangup stands whatever the provider answers, so a failure is logged, not answered.
 */
export async function tellProviderStopped(svc: RealtimeService, caller: Caller, row: RecordingRow): Promise<void> {
  const provider = recordingProviderOf(svc)
  if (!provider) return
  await provider
    .stop({ ...targetOf(row, caller), provider_ref: row.provider_ref })
    .catch((err) => svc.log.warn({ err, recording_id: row.id }, 'recording provider did not stop the recording'))
}

async function markStopped(tx: Tx<RealtimeDatabase>, row: RecordingRow, at: string): Promise<RecordingRow> {
  const after: RecordingRow = { ...row, status: 'stopped', stopped_at: at, updated_at: nowIso() }
  await updateRecording(tx.db, row.id, { status: 'stopped', stopped_at: at, updated_at: after.updated_at })
  await tx.emit(VoiceEvents.recordingStopped, recordingFacts(after), scopeOfCall(after))
  return after
}

function targetOf(row: RecordingRow, caller: Caller) {
  return {
    recording_id: row.id,
    call_id: row.call_id,
    conversation_id: row.conversation_id,
    scope: scopeOfCall(row),
    request_id: caller.request_id,
  }
}

/**
 * Keeps a recording's audio (one file per recording: 409 for a second) through the provider, then notes where it
 * is. The audio goes to the call's conversation, so it is read with the same rule as any attachment there.
 */
export async function attachAudio(
  svc: RealtimeService,
  caller: Caller,
  id: string,
  audio: AudioFile,
): Promise<RecordingChange> {
  const provider = providerOf(svc)
  const current = await findRecording(svc.db, id, caller.scope)
  if (!current) throw new RealtimeErrors.RecordingNotFound(id)
  if (current.upload_id) throw new VoiceErrors.AudioExists(id)
  if (!current.conversation_id) throw new VoiceErrors.NoConversation(current.call_id)
  const kept = await provider.keepAudio(targetOf(current, caller), audio)
  return svc.transaction(caller, async (tx) => {
    const row = await findRecordingForUpdate(tx, id, caller.scope)
    if (!row) throw new RealtimeErrors.RecordingNotFound(id)
    // two uploads raced: the other one's file is the recording's (this one stays an attachment of the conversation)
    if (row.upload_id) throw new VoiceErrors.AudioExists(id)
    const patch = {
      upload_id: kept.upload_id,
      audio_content_type: kept.content_type,
      audio_size: kept.size,
      audio_sha256: kept.sha256,
      updated_at: nowIso(),
    }
    await updateRecording(tx.db, id, patch)
    return { before: recordingView(row), after: recordingView({ ...row, ...patch }) }
  })
}
