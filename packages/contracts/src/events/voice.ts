import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

export const CALL_STATUSES = ['ringing', 'active', 'held', 'ended'] as const
export const RECORDING_STATUSES = ['recording', 'stopped'] as const
export const TRANSCRIPT_SPEAKERS = ['caller', 'agent'] as const

/**
 * What every call event carries (realtime-voice's voice calls). `call_id` is the signalling side's id of the call
 * (a SIP Call-ID, a provider's call sid), unique within a tenant/workspace; `conversation_id` the conversations
 * session the call is linked to.
 */
export const CallFacts = Type.Object({
  call_id: Type.String(),
  protocol: Type.String(),
  status: Type.Union(CALL_STATUSES.map((s) => Type.Literal(s))),
  from: Type.String(),
  to: Type.String(),
  conversation_id: Nullable(Type.String()),
  started_at: Type.String(),
  answered_at: Nullable(Type.String()),
  ended_at: Nullable(Type.String()),
})
export type CallFacts = Static<typeof CallFacts>

export const RecordingFacts = Type.Object({
  recording_id: Type.String(),
  call_id: Type.String(),
  conversation_id: Nullable(Type.String()),
  provider: Type.String(),
  status: Type.Union(RECORDING_STATUSES.map((s) => Type.Literal(s))),
  started_at: Type.String(),
  stopped_at: Nullable(Type.String()),
})
export type RecordingFacts = Static<typeof RecordingFacts>

/**
 * Subjects start with `realtime.` (the unit's events, on the REALTIME stream). A transcript's words are not in its
 * event: what was said on a call is read through the API by whoever may, not copied into every consumer's store.
 */
export const VoiceEvents = {
  callStarted: { type: 'realtime.call.started', data: CallFacts },
  callAnswered: { type: 'realtime.call.answered', data: CallFacts },
  callEnded: { type: 'realtime.call.ended', data: CallFacts },
  recordingStarted: { type: 'realtime.recording.started', data: RecordingFacts },
  recordingStopped: { type: 'realtime.recording.stopped', data: RecordingFacts },
  transcriptFinalized: {
    type: 'realtime.transcript.finalized',
    data: Type.Object({
      transcript_id: Type.String(),
      call_id: Type.String(),
      conversation_id: Nullable(Type.String()),
      /** the conversation message it became; null when it could not be posted (the call had ended) */
      message_id: Nullable(Type.String()),
      speaker: Type.Union(TRANSCRIPT_SPEAKERS.map((s) => Type.Literal(s))),
      language: Type.String(),
    }),
  },
} as const
