import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'

/**
 * The frames a client sends (services/realtime-voice/README.md "The socket protocol"): the envelope
 * `{type, data, session_id, timestamp}` and each type's `data`. Every frame is checked here before anything acts
 * on it; what fails is answered with an `error` frame, never a crash. Pure.
 */

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Credential = Type.String({ minLength: 1, maxLength: 128 })
/** an SDP is a few KiB; the frame limit bounds it anyway */
const Sdp = Type.String({ minLength: 1, maxLength: 60_000 })

/** The envelope. `timestamp` is the server's to set: whatever a client puts there is ignored. */
export const ClientFrame = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 64 }),
  data: Type.Optional(Type.Unknown()),
  session_id: Type.Optional(Type.Union([Id, Type.Null()])),
  timestamp: Type.Optional(Type.Unknown()),
})
export type ClientFrame = Static<typeof ClientFrame>

export const JoinData = Type.Object({
  session_id: Type.Optional(Id),
  /** an anonymous visitor's proof, issued once when its session was created */
  visitor_credential: Type.Optional(Credential),
  /** the last message id the client saw: what came after it is sent first, in order */
  after: Type.Optional(Id),
})
export const LeaveData = Type.Object({ session_id: Type.Optional(Id) })
/** conversations bounds the text (16 KiB of UTF-8) and the metadata (4 KiB); its refusal comes back as a frame */
export const TextMessageData = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object({
    content: Type.String({ minLength: 1 }),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** from a console: an internal note, staff only (a customer's or visitor's socket is refused, 403) */
    internal: Type.Optional(Type.Boolean()),
  }),
])
export const TransferRequestData = Type.Union([
  Type.Null(),
  Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) }),
])
export const TypingData = Type.Object({ state: Type.Union([Type.Literal('start'), Type.Literal('stop')]) })
export const ReadData = Type.Object({ message_id: Id })
export const OfferData = Type.Object({ sdp: Sdp, type: Type.Optional(Type.Literal('offer')) })
export const AnswerData = Type.Object({ sdp: Sdp, type: Type.Optional(Type.Literal('answer')) })
export const CandidateData = Type.Object({
  candidate: Type.String({ maxLength: 2048 }),
  sdpMid: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  sdpMLineIndex: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1024 }), Type.Null()])),
  usernameFragment: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
})

// RTCPeerConnection's state values (W3C WebRTC §4.3.3–4.3.5), as a browser reports them.
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)))
export const CONNECTION_STATES = ['new', 'connecting', 'connected', 'disconnected', 'failed', 'closed'] as const
export const ICE_CONNECTION_STATES = [
  'new',
  'checking',
  'connected',
  'completed',
  'disconnected',
  'failed',
  'closed',
] as const
export const ICE_GATHERING_STATES = ['new', 'gathering', 'complete'] as const
export const StatsData = Type.Object({
  connection_state: Type.Optional(literals(CONNECTION_STATES)),
  ice_connection_state: Type.Optional(literals(ICE_CONNECTION_STATES)),
  ice_gathering_state: Type.Optional(literals(ICE_GATHERING_STATES)),
})

/** Every type a client may send, with the schema of its `data`. */
export const CLIENT_FRAME_DATA = {
  join: JoinData,
  leave: LeaveData,
  'text-message': TextMessageData,
  'transfer-request': TransferRequestData,
  typing: TypingData,
  read: ReadData,
  'webrtc-offer': OfferData,
  'webrtc-answer': AnswerData,
  'webrtc-candidate': CandidateData,
  'webrtc-stats': StatsData,
  ping: Type.Unknown(),
} as const satisfies Record<string, TSchema>
export type ClientFrameType = keyof typeof CLIENT_FRAME_DATA

/** A checked frame: its type, its data as that type's schema has it, and the session it names (if any). */
export type ParsedFrame = {
  [K in ClientFrameType]: { type: K; data: Static<(typeof CLIENT_FRAME_DATA)[K]>; session_id: string | undefined }
}[ClientFrameType]

export type FrameProblem =
  | { problem: 'malformed'; message: string }
  | { problem: 'unknown_type'; type: string }
  | { problem: 'invalid_data'; type: string; message: string }

const envelope = TypeCompiler.Compile(ClientFrame)
const checkers = Object.fromEntries(
  Object.entries(CLIENT_FRAME_DATA).map(([type, schema]) => [type, TypeCompiler.Compile(schema)]),
) as Record<ClientFrameType, ReturnType<typeof TypeCompiler.Compile>>

const isType = (t: string): t is ClientFrameType => Object.hasOwn(CLIENT_FRAME_DATA, t)

/** First problem of a value against a compiled schema, as `path: message`. */
function firstError(check: ReturnType<typeof TypeCompiler.Compile>, value: unknown): string {
  const e = check.Errors(value).First()
  return e ? `${e.path || '/'}: ${e.message}` : 'invalid'
}

/** A text frame as the client sent it: the checked frame, or what is wrong with it. */
export function parseClientFrame(text: string): ParsedFrame | FrameProblem {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { problem: 'malformed', message: 'a frame is one JSON object' }
  }
  if (!envelope.Check(value)) return { problem: 'malformed', message: firstError(envelope, value) }
  const { type } = value
  if (!isType(type)) return { problem: 'unknown_type', type }
  // `data` absent is `{}` for the types whose fields are all optional (a bare `leave`, `join` by session_id)
  const data = value.data ?? (type === 'transfer-request' ? null : type === 'ping' ? undefined : {})
  if (!checkers[type].Check(data)) return { problem: 'invalid_data', type, message: firstError(checkers[type], data) }
  // Fields beyond a type's schema are dropped, not relayed: other participants get what the protocol defines.
  const clean = type === 'ping' ? undefined : Value.Clean(CLIENT_FRAME_DATA[type], data)
  return { type, data: clean, session_id: value.session_id ?? undefined } as ParsedFrame
}

export const isProblem = (f: ParsedFrame | FrameProblem): f is FrameProblem => 'problem' in f
