/**
 * The protocols this service takes events from (the earlier system's lists, kept for its clients): signalling protocols carry call events, media
 * protocols carry media events. A protocol outside its list is 404 (not served here), an event outside its list
 * 400 (a request this service will never understand).
 */
export const SIGNALING_PROTOCOLS = ['sip', 'sip-ws', 'pstn-provider'] as const
export const MEDIA_PROTOCOLS = ['webrtc', 'rtp', 'srtp'] as const

export const CALL_EVENT_KINDS = ['invite', 'answer', 'hold', 'resume', 'hangup', 'transfer', 'dtmf'] as const
export const MEDIA_EVENT_KINDS = [
  'session_started',
  'session_closed',
  'track_muted',
  'track_unmuted',
  'recording_started',
  'recording_stopped',
] as const

export type SignalingProtocol = (typeof SIGNALING_PROTOCOLS)[number]
export type MediaProtocol = (typeof MEDIA_PROTOCOLS)[number]
export type CallEventKind = (typeof CALL_EVENT_KINDS)[number]
export type MediaEventKind = (typeof MEDIA_EVENT_KINDS)[number]

export interface ProtocolEntry {
  id: string
  type: 'signaling' | 'media'
  status: 'configured'
  created_at: string
}

// The registry is code, not rows: it changes with a release, so its date is the release's that introduced it.
const REGISTERED_AT = '2026-11-24T00:00:00.000Z'

/** Every registered protocol, signalling first, in a stable order (the list route pages over it). */
export const PROTOCOLS: readonly ProtocolEntry[] = [
  ...SIGNALING_PROTOCOLS.map((id) => ({
    id,
    type: 'signaling' as const,
    status: 'configured' as const,
    created_at: REGISTERED_AT,
  })),
  ...MEDIA_PROTOCOLS.map((id) => ({
    id,
    type: 'media' as const,
    status: 'configured' as const,
    created_at: REGISTERED_AT,
  })),
]

const among =
  <T extends string>(list: readonly T[]) =>
  (value: string): value is T =>
    (list as readonly string[]).includes(value)

export const isSignalingProtocol = among(SIGNALING_PROTOCOLS)
export const isMediaProtocol = among(MEDIA_PROTOCOLS)
export const isCallEventKind = among(CALL_EVENT_KINDS)
export const isMediaEventKind = among(MEDIA_EVENT_KINDS)
