import { ServiceUnavailableError } from '@switchboard/platform'
import type { ParsedFrame } from '../domain/frame-schema.ts'
import { errorFrame, frame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { type Client, send } from './registry.ts'
import {
  agentMessage,
  customerMessage,
  join,
  joinedTrack,
  leave,
  refusalFrame,
  refused,
  transferRequest,
} from './session-frames.ts'
import { partyOf, publishSignal } from './signals.ts'
import { RefusedError } from './upstream.ts'

/**
 * One checked client frame, handled (the socket's frames go through here one at a time, in order). Whatever goes
 * wrong is answered with an `error` frame — a refusal with its code, a dependency down with 502/504's — never by
 * closing the socket or crashing the replica.
 */
export async function handleFrame(h: HubContext, c: Client, f: ParsedFrame, signalsOver: () => boolean) {
  try {
    await dispatch(h, c, f, signalsOver)
  } catch (err) {
    const named = f.type === 'join' || f.type === 'leave' ? f.data.session_id : undefined
    const sessionId = f.session_id ?? named ?? null
    if (err instanceof RefusedError) return send(c, refusalFrame(err, sessionId))
    if (err instanceof ServiceUnavailableError) return send(c, errorFrame(err.code, err.message, sessionId))
    h.log.error({ err, type: f.type }, 'hub: a frame failed')
    send(c, errorFrame('INTERNAL', 'the frame could not be handled', sessionId))
  }
}

type TextData = string | { content: string; metadata?: Record<string, unknown>; internal?: boolean }

const text = (d: TextData) =>
  typeof d === 'string'
    ? { content: d }
    : d.metadata
      ? { content: d.content, metadata: d.metadata }
      : { content: d.content }

const isNote = (d: TextData) => typeof d !== 'string' && d.internal === true

async function dispatch(h: HubContext, c: Client, f: ParsedFrame, signalsOver: () => boolean) {
  switch (f.type) {
    case 'ping':
      return send(c, frame('pong', {}, f.session_id ?? null))
    case 'join': {
      const sessionId = f.data.session_id ?? f.session_id
      if (!sessionId) throw refused('REALTIME_SESSION_REQUIRED', 'join names a session_id')
      return join(h, c, sessionId, { credential: f.data.visitor_credential, after: f.data.after })
    }
    case 'leave':
      return leave(h, c, f.data.session_id ?? f.session_id ?? c.current)
    case 'text-message':
      if (c.mode === 'visitor' || c.mode === 'customer') {
        // a note is staff's: refused rather than posted for everyone to read
        if (isNote(f.data)) throw refused('REALTIME_FRAME_NOT_ALLOWED', 'only a console writes internal notes', 403)
        return customerMessage(h, c, f.session_id, text(f.data))
      }
      if (c.mode === 'console') {
        return agentMessage(h, c, f.session_id, isNote(f.data) ? { ...text(f.data), internal: true } : text(f.data))
      }
      throw notAllowed(c, f.type)
    case 'transfer-request':
      if (c.mode !== 'visitor' && c.mode !== 'customer') throw notAllowed(c, f.type)
      return transferRequest(h, c, f.session_id, f.data?.reason)
    case 'typing':
    case 'read': {
      const track = joinedTrack(c, f.session_id)
      // an observer watches: a typing indicator or read receipt from it would read as the agent's to the customer
      if (track.role === 'observer') {
        throw refused('REALTIME_FRAME_NOT_ALLOWED', `an observer of the session does not send ${f.type}`, 403)
      }
      // past the budget they are dropped without a word (README "Limits")
      if (signalsOver()) return
      await publishSignal(h, c, track, f.type, 'session', f.data)
      // a console's read receipt is also its agent's read marker (conversations' inbox unread counts)
      if (f.type === 'read' && c.mode === 'console' && c.principal) {
        const scope = { tenant_id: track.session.tenant_id, workspace_id: track.session.workspace_id }
        await h.api.markRead(track.session.id, c.principal.user_id, f.data.message_id, scope)
      }
      return
    }
    case 'webrtc-offer':
    case 'webrtc-answer':
    case 'webrtc-candidate':
    case 'webrtc-stats':
      return webrtcFrame(h, c, f)
  }
}

const notAllowed = (c: Client, type: string) =>
  refused('REALTIME_FRAME_NOT_ALLOWED', `a ${c.mode} socket does not send ${type}`, 403)

type WebrtcFrame = Extract<ParsedFrame, { type: `webrtc-${string}` }>

const STEP = {
  'webrtc-offer': 'offer',
  'webrtc-answer': 'answer',
  'webrtc-candidate': 'candidate',
  'webrtc-stats': 'stats',
} as const

/**
 * WebRTC signalling between the session's two participants — its customer (or visitor) and its assigned agent —
 * and their state reports; anyone else in the session (a supervisor, a service) is refused.
 */
async function webrtcFrame(h: HubContext, c: Client, f: WebrtcFrame) {
  const track = joinedTrack(c, f.session_id)
  const session = track.session
  // a customer or visitor socket only ever joins its own session (conversations' access check)
  const customerSide = c.mode === 'visitor' || c.mode === 'customer'
  const assignedAgent = c.mode === 'console' && session.agent_id !== null && session.agent_id === c.principal?.user_id
  if (!customerSide && !assignedAgent) {
    throw refused('REALTIME_NOT_A_PARTICIPANT', "WebRTC is between the session's customer and its assigned agent", 403)
  }
  if (customerSide && session.agent_id === null) {
    throw refused('REALTIME_NO_AGENT', 'no agent is assigned to this session yet', 409)
  }
  const party = partyOf(c, track)
  const scope = { tenant_id: session.tenant_id, workspace_id: session.workspace_id }
  await h.connections.update(scope, session.id, party, STEP[f.type], f.type === 'webrtc-stats' ? f.data : {})
  if (f.type === 'webrtc-stats') return
  await publishSignal(h, c, track, f.type, customerSide ? 'agent' : 'customer', f.data)
}
