/**
 * The visitor's conversation kept in the frame's own localStorage (the gateway's origin: the host page cannot read
 * it), one entry per tenant + workspace. The credential is the only proof of the session (conversations keeps its
 * hash); the transcript is kept beside it because a visitor has no HTTP read of its history — the hub's resume
 * (`join` with `after` = the last message kept) sends what came since, so a reload shows the whole conversation.
 */
import type { ChatMessage } from './messages.ts'

export interface Saved {
  session_id: string
  credential: string
  messages: ChatMessage[]
  /** the conversation's CSAT was given (or refused as given): not asked again */
  rated?: boolean
}

export interface Visitor {
  name?: string
  email?: string
}

/** the transcript kept: the newest messages (older ones are in the agent's history, not needed to resume) */
const KEEP = 200

const keyOf = (tenantId: string, workspaceId: string) => `switchboard.widget.v1:${tenantId}:${workspaceId}`

function store(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    // storage blocked (third-party storage partitioning off, private modes): the chat works for this page only
    return null
  }
}

export function load(tenantId: string, workspaceId: string): Saved | null {
  try {
    const raw = store()?.getItem(keyOf(tenantId, workspaceId))
    const saved = raw ? (JSON.parse(raw) as Saved) : null
    return saved && typeof saved.session_id === 'string' && typeof saved.credential === 'string'
      ? { ...saved, messages: Array.isArray(saved.messages) ? saved.messages : [] }
      : null
  } catch {
    return null
  }
}

export function save(tenantId: string, workspaceId: string, saved: Saved | null): void {
  const s = store()
  if (!s) return
  const key = keyOf(tenantId, workspaceId)
  try {
    if (!saved) s.removeItem(key)
    else s.setItem(key, JSON.stringify({ ...saved, messages: saved.messages.slice(-KEEP) }))
  } catch {
    // quota: the credential matters more than the transcript
    if (saved) s.setItem(key, JSON.stringify({ ...saved, messages: saved.messages.slice(-10) }))
  }
}

const visitorKey = (tenantId: string, workspaceId: string) => `switchboard.widget.v1.visitor:${tenantId}:${workspaceId}`

export function loadVisitor(tenantId: string, workspaceId: string): Visitor | null {
  try {
    const raw = store()?.getItem(visitorKey(tenantId, workspaceId))
    return raw ? (JSON.parse(raw) as Visitor) : null
  } catch {
    return null
  }
}

export function saveVisitor(tenantId: string, workspaceId: string, visitor: Visitor): void {
  try {
    store()?.setItem(visitorKey(tenantId, workspaceId), JSON.stringify(visitor))
  } catch {
    // not kept: the form asks again next time
  }
}
