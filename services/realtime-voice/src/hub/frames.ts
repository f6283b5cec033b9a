import type { MessageFacts } from '@switchboard/contracts'

/**
 * Frames the hub sends: `{type, data, session_id, timestamp}` (README "The socket protocol"), `timestamp` set
 * here. A message frame carries the message's `seq` in its session, which is what a client keeps to resume.
 */
export interface OutFrame {
  type: string
  data: unknown
  session_id: string | null
  /** set on message frames: the position the per-socket de-duplication works on */
  seq?: number
  /** an internal note's frame: only console and service sockets get it (registry `deliver`/`send`) */
  staffOnly?: boolean
  /** the bytes on the wire, made by the first send and reused by the others (a fan-out sends one frame N times) */
  encoded?: Buffer
}

export function frame(type: string, data: unknown, sessionId: string | null = null): OutFrame {
  return { type, data, session_id: sessionId }
}

/**
 * The UTF-8 text that goes on the wire, encoded once per frame: every socket a frame reaches gets the same bytes and
 * the same `timestamp` (when the hub first sent it). Frames are not changed once made.
 */
export function wire(f: OutFrame): Buffer {
  f.encoded ??= Buffer.from(
    JSON.stringify({ type: f.type, data: f.data, session_id: f.session_id, timestamp: new Date().toISOString() }),
  )
  return f.encoded
}

/** What an error frame says: a stable code (conversations' own when it refused) and a message for people. */
export function errorFrame(code: string, message: string, sessionId: string | null = null): OutFrame {
  return frame('error', { code, message }, sessionId)
}

/** The frame type a message travels as, by who wrote it (the earlier system's names). */
const BY_SENDER: Record<MessageFacts['sender'], string> = {
  customer: 'text-message',
  agent: 'agent-message',
  ai: 'ai-response',
  system: 'system',
}

/** A message as conversations lists it (`GET …/messages`), or the facts of its event. */
export interface MessageLike {
  session_id: string
  sender: MessageFacts['sender']
  sender_id: string | null
  kind: string
  content: string
  metadata: Record<string, unknown>
  created_at: string
  /** `internal`: a staff-only note; absent (an older conversations) means public */
  visibility?: 'public' | 'internal' | undefined
}

/** The frame of a message: `data` has its id, its `seq`, who wrote it and what. */
export function messageFrame(m: MessageLike & ({ message_id: string } | { id: string }), seq: number | undefined) {
  const id = 'message_id' in m ? m.message_id : m.id
  const out = frame(
    BY_SENDER[m.sender],
    {
      message_id: id,
      seq: seq ?? null,
      sender: m.sender,
      sender_id: m.sender_id,
      kind: m.kind,
      content: m.content,
      metadata: m.metadata,
      visibility: m.visibility ?? 'public',
      created_at: m.created_at,
    },
    m.session_id,
  )
  if (seq !== undefined) out.seq = seq
  // anything but public is kept from customers: a value this hub does not know is treated as a note
  if (m.visibility !== undefined && m.visibility !== 'public') out.staffOnly = true
  return out
}
