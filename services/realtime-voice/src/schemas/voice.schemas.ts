import { type Static, Type } from '@sinclair/typebox'
import {
  CALL_STATUSES,
  Nullable,
  PageQuery,
  Paginated,
  RECORDING_STATUSES,
  Timestamp,
  TRANSCRIPT_SPEAKERS,
} from '@switchboard/contracts'

// /api/voice/*: the wire is snake_case; records are answered as themselves (no success/data wrapper).

const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  maxProperties: 32,
  description: 'free-form, kept with the event',
})
/** A SIP Call-ID, a provider's call sid: no blanks, bounded (it is part of the event id). */
const CallId = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^\\S+$',
  description: "the signalling side's id of the call",
})
/** A SIP URI or a phone number. The caller's becomes the conversation's customer id, hence the same bound. */
const Address = Type.String({ minLength: 1, maxLength: 128, pattern: '^\\S+$' })
const RecordId = Type.String({ minLength: 1, maxLength: 128 })

export const ProtocolParams = Type.Object({
  protocol: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'sip, sip-ws, pstn-provider (calls); webrtc, rtp, srtp (media)',
  }),
  event: Type.String({ minLength: 1, maxLength: 64 }),
})
export type ProtocolParams = Static<typeof ProtocolParams>

export const Protocol = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('signaling'), Type.Literal('media')]),
  status: Type.Literal('configured'),
  created_at: Timestamp,
})
export const ProtocolPage = Paginated(Protocol)
export const ProtocolQuery = PageQuery

export const CallEventPayload = Type.Object(
  {
    call_id: CallId,
    conversation_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'invite: link this conversation instead of opening one',
      }),
    ),
    from: Address,
    to: Type.String({ ...Address, description: 'for transfer: the target' }),
    dtmf: Type.Optional(
      Type.String({ pattern: '^[0-9A-Da-d*#]{1,32}$', description: 'dtmf: the digits (RFC 4733 events)' }),
    ),
    occurred_at: Type.Optional(Type.String({ format: 'date-time', description: 'default: when received' })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
)
export type CallEventPayload = Static<typeof CallEventPayload>
export const CallEventBody = Type.Object({ payload: CallEventPayload }, { additionalProperties: false })
export type CallEventBody = Static<typeof CallEventBody>

export const CallEvent = Type.Object({
  event_id: Type.String({ description: '<protocol>-<kind>-<call_id>, with -<n> from the second event of a kind' }),
  protocol: Type.String(),
  kind: Type.String(),
  call_id: Type.String(),
  conversation_id: Nullable(Type.String()),
  call_status: Type.Union(
    CALL_STATUSES.map((s) => Type.Literal(s)),
    { description: 'the call after this event' },
  ),
  from: Type.String(),
  to: Type.String(),
  dtmf: Nullable(Type.String()),
  occurred_at: Timestamp,
  metadata: Type.Record(Type.String(), Type.Unknown()),
})
export type CallEvent = Static<typeof CallEvent>

export const MediaEventPayload = Type.Object(
  {
    call_id: CallId,
    track_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    recording_id: Type.Optional(RecordId),
    occurred_at: Type.Optional(Type.String({ format: 'date-time', description: 'default: when received' })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
)
export type MediaEventPayload = Static<typeof MediaEventPayload>
export const MediaEventBody = Type.Object({ payload: MediaEventPayload }, { additionalProperties: false })
export type MediaEventBody = Static<typeof MediaEventBody>

export const MediaEvent = Type.Object({
  event_id: Type.String(),
  protocol: Type.String(),
  kind: Type.String(),
  call_id: Type.String(),
  conversation_id: Nullable(Type.String()),
  track_id: Nullable(Type.String()),
  recording_id: Nullable(Type.String()),
  occurred_at: Timestamp,
  metadata: Type.Record(Type.String(), Type.Unknown()),
})
export type MediaEvent = Static<typeof MediaEvent>

export const Recording = Type.Object({
  id: Type.String(),
  call_id: Type.String(),
  conversation_id: Nullable(Type.String()),
  provider: Type.String(),
  status: Type.Union(RECORDING_STATUSES.map((s) => Type.Literal(s))),
  started_at: Timestamp,
  stopped_at: Nullable(Timestamp),
  duration_seconds: Nullable(Type.Number({ description: 'once stopped' })),
  upload_id: Nullable(Type.String({ description: "the audio, one of conversations' uploads (GET /uploads/:id)" })),
  audio_url: Nullable(Type.String()),
  audio_content_type: Nullable(Type.String()),
  audio_size: Nullable(Type.Integer()),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Recording = Static<typeof Recording>

export const StartRecordingBody = Type.Object(
  {
    call_id: CallId,
    provider: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'the configured provider (local)' }),
    ),
  },
  { additionalProperties: false },
)
export type StartRecordingBody = Static<typeof StartRecordingBody>

export const StopRecordingBody = Type.Object({ recording_id: RecordId }, { additionalProperties: false })
export type StopRecordingBody = Static<typeof StopRecordingBody>

export const RecordingParams = Type.Object({ id: RecordId })
export type RecordingParams = Static<typeof RecordingParams>

/** The audio route's body as OpenAPI shows it; the handler reads it (raw `audio/*`, or a form with `file`). */
export const AudioBody = {
  description: 'the audio: a raw audio/* body, or multipart/form-data with the part `file`',
  type: 'string',
  format: 'binary',
}

export const Transcript = Type.Object({
  id: Type.String(),
  call_id: Type.String(),
  conversation_id: Nullable(Type.String()),
  speaker: Type.Union(TRANSCRIPT_SPEAKERS.map((s) => Type.Literal(s))),
  content: Type.String(),
  language: Type.String(),
  finalized: Type.Boolean(),
  message_id: Nullable(Type.String({ description: 'the conversation message a finalized transcript became' })),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
})
export type Transcript = Static<typeof Transcript>

export const CreateTranscriptBody = Type.Object(
  {
    call_id: CallId,
    content: Type.String({ minLength: 1, maxLength: 16_384, pattern: '\\S' }),
    language: Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$', maxLength: 35, description: 'BCP 47' }),
    finalized: Type.Boolean(),
    speaker: Type.Optional(
      Type.Union(
        TRANSCRIPT_SPEAKERS.map((s) => Type.Literal(s)),
        {
          description: "caller (default): the customer's words; agent: posted as a system message",
        },
      ),
    ),
  },
  { additionalProperties: false },
)
export type CreateTranscriptBody = Static<typeof CreateTranscriptBody>

export const TranscriptQuery = Type.Composite([PageQuery, Type.Object({ call_id: Type.Optional(CallId) })])
export type TranscriptQuery = Static<typeof TranscriptQuery>
export const TranscriptPage = Paginated(Transcript)
