import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

/**
 * What the realtime hub relays between its replicas without storing it: typing indicators, read receipts, WebRTC
 * signalling, and the pieces of an AI answer being written (`ai-response`: ai-orchestrator streams the LLM's answer
 * to a conversation's sockets as it comes, `data.partial: true`; the whole answer follows as the session's `ai`
 * message). Every hub replica publishes what its sockets send and delivers what any replica published to its own
 * sockets of that session. Nothing else reads these events.
 */
export const SIGNAL_KINDS = [
  'typing',
  'read',
  'webrtc-offer',
  'webrtc-answer',
  'webrtc-candidate',
  'ai-response',
] as const
export type SignalKind = (typeof SIGNAL_KINDS)[number]

/** How a socket takes part: an anonymous widget visitor, a signed-in customer, an agent console, a service. */
export const SOCKET_MODES = ['visitor', 'customer', 'console', 'service'] as const
export type SocketMode = (typeof SOCKET_MODES)[number]

/**
 * Who receives a signal: `agent` the consoles of the session's assigned agent only, `customer` the session's
 * customer or visitor sockets only (WebRTC: the two participants, never anyone else), `session` every socket of
 * the session but the sender's own (typing, read receipts).
 */
export const SIGNAL_TARGETS = ['agent', 'customer', 'session'] as const
export type SignalTarget = (typeof SIGNAL_TARGETS)[number]

export const SignalRelayed = Type.Object({
  session_id: Type.String(),
  kind: Type.Union(SIGNAL_KINDS.map((k) => Type.Literal(k))),
  /** the sending party: its mode and its user id (a visitor: its visitor id) */
  from: Type.Object({ kind: Type.Union(SOCKET_MODES.map((m) => Type.Literal(m))), id: Type.String() }),
  to: Type.Union(SIGNAL_TARGETS.map((t) => Type.Literal(t))),
  /** the session's assigned agent as the sending replica knew it: whose consoles `agent` (and `session`) reach */
  agent_id: Nullable(Type.String()),
  /** the frame's data as the client sent it (checked by the hub against the frame's schema) */
  data: Type.Record(Type.String(), Type.Unknown()),
})
export type SignalRelayed = Static<typeof SignalRelayed>

export const RealtimeSignalEvents = {
  relayed: { type: 'hub.signal.relayed', data: SignalRelayed },
} as const

/**
 * The hub's own stream, declared by realtime-voice's descriptor (not in `STREAMS`, which every unit ensures
 * without a max age): signals are worth nothing a minute later, so the stream keeps them that long only. Not in
 * `REALTIME` (`realtime.>`): that one holds voice calls' durable events, which must not expire with them.
 */
export const HUB_STREAM = { name: 'HUB', subjects: ['hub.>'], maxAgeMs: 60_000 } as const
