import { createError } from '@switchboard/platform'

/**
 * realtime-voice's error catalog (HTTP answers; on a socket the same codes travel in `error` frames). A call,
 * recording or connection outside the caller's scope answers exactly like a missing one.
 */
export const RealtimeErrors = {
  CallNotFound: createError('REALTIME_CALL_NOT_FOUND', 'call %s not found', 404),
  RecordingNotFound: createError('REALTIME_RECORDING_NOT_FOUND', 'recording %s not found', 404),
  ConnectionNotFound: createError('REALTIME_CONNECTION_NOT_FOUND', 'connection for session %s not found', 404),
  UnknownProtocol: createError('REALTIME_UNKNOWN_PROTOCOL', 'unsupported protocol %s', 404),
  UnknownEvent: createError('REALTIME_UNKNOWN_EVENT', 'unsupported event "%s"', 400),
  RecordingDisabled: createError('REALTIME_RECORDING_DISABLED', 'voice recording provider is disabled', 503),
  // The socket route (GET /api/v1/ws) before the upgrade; frames' own refusals are `error` frames (README).
  UpgradeRequired: createError('REALTIME_UPGRADE_REQUIRED', '/api/v1/ws takes WebSocket upgrades only', 426),
  TooManySockets: createError('REALTIME_TOO_MANY_SOCKETS', 'at most %d sockets per principal on this replica', 429),
}

/**
 * Voice's errors beyond the service catalog (src/errors.ts holds those the reference names: unknown protocol and
 * event, call and recording not found, recording disabled). Same body, codes prefixed like the rest.
 */
export const VoiceErrors = {
  InvalidTransition: createError('REALTIME_CALL_INVALID_TRANSITION', 'call %s is %s: %s is not allowed', 409),
  CallExists: createError('REALTIME_CALL_EXISTS', 'call %s exists already', 409),
  CallEnded: createError('REALTIME_CALL_ENDED', 'call %s has ended', 409),
  ConversationMismatch: createError('REALTIME_CALL_CONVERSATION_MISMATCH', 'call %s is linked to conversation %s', 409),
  ConversationNotFound: createError('REALTIME_CONVERSATION_NOT_FOUND', 'conversation %s not found', 404),
  RecordingActive: createError('REALTIME_RECORDING_ACTIVE', 'call %s is being recorded already (recording %s)', 409),
  RecordingStopped: createError('REALTIME_RECORDING_STOPPED', 'recording %s is stopped already', 409),
  /** a media event's recording is one of its own call (so of its scope): any other id, another tenant's too, is none */
  UnknownRecording: createError(
    'REALTIME_UNKNOWN_RECORDING',
    'body.payload.recording_id: no recording %s of call %s',
    400,
  ),
  AudioExists: createError('REALTIME_RECORDING_AUDIO_EXISTS', 'recording %s has its audio already', 409),
  NoConversation: createError(
    'REALTIME_CALL_WITHOUT_CONVERSATION',
    'call %s has no conversation to keep audio in',
    409,
  ),
  AudioType: createError('REALTIME_AUDIO_TYPE', 'audio is sent as audio/* (raw, or the form part "file"), not %s', 415),
  AudioTooLarge: createError('REALTIME_AUDIO_TOO_LARGE', 'audio is larger than %d bytes', 413),
  AudioMissing: createError('VALIDATION_FAILED', 'body: %s', 400),
  BodyField: createError('VALIDATION_FAILED', 'body.%s: %s', 400),
}

/**
 * Conversations refused what this service asked for the caller (a closed session, a message too large, an audio
 * type its uploads do not take): its status and code go back unchanged, so the caller learns the real reason.
 */
export class ConversationsRefusal extends Error {
  override name = 'ConversationsRefusal'
  readonly statusCode: number
  readonly code: string
  constructor(statusCode: number, code: string, message: string) {
    super(message)
    this.statusCode = statusCode
    this.code = code
  }
}

/** Conversations failed (5xx) or refused this service itself (401/403: a deployment fault): 502. */
export class ConversationsFailure extends Error {
  override name = 'ConversationsFailure'
  readonly statusCode = 502
  readonly code = 'REALTIME_CONVERSATIONS_FAILED'
  constructor(status: number, options?: ErrorOptions) {
    super(`conversations answered ${status}`, options)
  }
}
