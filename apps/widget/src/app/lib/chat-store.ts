/**
 * The chat's one source of state (a small hand-written store: the app has one conversation, a query cache would
 * be most of the budget). The hub's frames update it; components read it through `useChat`.
 *
 * Sending without loss: a message is kept as pending (with a `client_id` in its metadata, which the hub echoes)
 * until its own frame comes back. After every (re)connect the session is rejoined with `after` = the last message
 * held, then a `ping`: the hub handles a socket's frames one at a time, so its `pong` comes after the resumed
 * history, and only then are the pending messages the history did not contain sent again. Before a session exists
 * only the first pending message goes out (it starts the session); the rest follow its `session` frame.
 */
import { ResumePoint } from '@switchboard/contracts/hub-resume.ts'
import { type ChatMessage, fromFrame, insert, last, MESSAGE_TYPES } from './messages.ts'
import { load, type Saved, save } from './storage.ts'
import type { Frame, SocketState, VisitorSocket } from './visitor-socket.ts'

export interface Pending {
  client_id: string
  content: string
  metadata: Record<string, unknown>
}

export interface ChatState {
  conn: SocketState
  sessionId: string | null
  status: string | null
  agentId: string | null
  messages: ChatMessage[]
  pending: Pending[]
  /** the AI's answer while it is written (partial `ai-response` frames) */
  aiDraft: string | null
  agentTyping: boolean
  /** the highest seq of the visitor's messages an agent has read */
  seenSeq: number
  queue: { position: number; wait: number | null } | null
  /** an error code the hub answered with, shown in words */
  error: string | null
  unread: number
  open: boolean
  rated: boolean
  /** the rating was just given: the thank-you shows */
  thanked: boolean
}

export interface ChatHooks {
  unread(count: number): void
}

/** how long an agent's "typing" shows without a fresh signal (the console repeats it while typing lasts) */
const TYPING_MS = 6000

/** refusals of a text-message that sending it again cannot change */
const REFUSES_MESSAGE = new Set([
  'CONVERSATIONS_MESSAGE_TOO_LARGE',
  'CONVERSATIONS_METADATA_TOO_LARGE',
  'REALTIME_INVALID_FRAME',
  'REALTIME_WIDGET_ORIGIN_NOT_ALLOWED',
  'REALTIME_WIDGET_SCOPE_REQUIRED',
  'IDENTITY_WIDGET_DISABLED',
  'VALIDATION_FAILED',
])

let ids = 0
const clientId = () => `w${Date.now().toString(36)}${(++ids).toString(36)}${Math.random().toString(36).slice(2, 6)}`

export class ChatStore {
  state: ChatState
  private socket: VisitorSocket | null = null
  private readonly listeners = new Set<() => void>()
  private credential: string | null = null
  /** the ping that closes the current rejoin's resume; null once synced */
  private syncToken: string | null = null
  private syncs = 0
  /** pending client ids sent on the current socket */
  private readonly sent = new Set<string>()
  /** where the next rejoin resumes: the newest message held with no gap in the seqs before it (frames can come late) */
  private resume: ResumePoint
  private typingTimer: ReturnType<typeof setTimeout> | null = null
  private lastReadSent = 0

  private readonly tenantId: string
  private readonly workspaceId: string
  private readonly hooks: ChatHooks

  constructor(tenantId: string, workspaceId: string, hooks: ChatHooks, open: boolean) {
    this.tenantId = tenantId
    this.workspaceId = workspaceId
    this.hooks = hooks
    const saved = load(tenantId, workspaceId)
    this.credential = saved?.credential ?? null
    this.resume = new ResumePoint(last(saved?.messages ?? [])?.id ?? null)
    this.state = {
      conn: 'connecting',
      sessionId: saved?.session_id ?? null,
      status: null,
      agentId: null,
      messages: saved?.messages ?? [],
      pending: [],
      aiDraft: null,
      agentTyping: false,
      seenSeq: 0,
      queue: null,
      error: null,
      unread: 0,
      open,
      rated: saved?.rated ?? false,
      thanked: false,
    }
  }

  attach(socket: VisitorSocket): void {
    this.socket = socket
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private set(patch: Partial<ChatState>): void {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l()
  }

  private persist(): void {
    const { sessionId, messages, rated } = this.state
    if (!sessionId || !this.credential) return
    const saved: Saved = { session_id: sessionId, credential: this.credential, messages, rated }
    save(this.tenantId, this.workspaceId, saved)
  }

  get visitorCredential(): string | null {
    return this.credential
  }

  // --- socket events ---

  onState = (conn: SocketState): void => {
    if (conn !== 'online') this.sent.clear()
    this.set({ conn, ...(conn === 'online' ? {} : { agentTyping: false }) })
  }

  // `sent` is not cleared here: a wake on the open socket (tab visible again) rejoins the same socket, where what was
  // sent is still on its way (a new socket cleared it when the old one went down)
  onReady = (): void => {
    const { sessionId } = this.state
    if (!sessionId || !this.credential) {
      this.syncToken = null
      this.flush()
      return
    }
    const after = this.resume.after ?? last(this.state.messages)?.id
    const data: Record<string, string> = { session_id: sessionId, visitor_credential: this.credential }
    if (after) data.after = after
    this.syncToken = `sync-${++this.syncs}`
    this.socket?.send({ type: 'join', data, session_id: sessionId })
    this.socket?.send({ type: 'ping', data: null, session_id: this.syncToken })
  }

  onFrame = (f: Frame): void => {
    if (MESSAGE_TYPES.has(f.type)) {
      this.onMessage(f)
      return
    }
    const d = f.data ?? {}
    switch (f.type) {
      case 'session':
        this.onSession(d)
        return
      case 'pong':
        if (f.session_id && f.session_id === this.syncToken) {
          this.syncToken = null
          this.flush()
          this.markRead()
        }
        return
      case 'typing':
        if (d.from?.kind === 'console') this.agentTyping(d.state === 'start')
        return
      case 'read': {
        if (d.from?.kind !== 'console') return
        const m = this.state.messages.find((x) => x.id === d.message_id)
        if (m && m.seq > this.state.seenSeq) this.set({ seenSeq: m.seq })
        return
      }
      case 'waiting_notification':
        if (d.status === 'waiting' && typeof d.position === 'number')
          this.set({ queue: { position: d.position, wait: d.estimated_wait_seconds ?? null } })
        else if (d.status === 'cancelled') this.set({ queue: null })
        return
      case 'transfer_notification': {
        // an agent has it (assigned, transferred, taken from the queue) or let it go: no longer waiting either way
        const waiting = this.state.status === 'waiting_human'
        this.set({ queue: null, agentId: d.agent_id ?? null, ...(waiting ? { status: 'active' } : {}) })
        return
      }
      case 'error':
        this.onError(d)
        return
    }
  }

  private onSession(d: any): void {
    if (typeof d.session_id !== 'string') return
    const fresh = d.visitor?.credential && d.session_id !== this.state.sessionId
    if (d.visitor?.credential) this.credential = d.visitor.credential
    const patch: Partial<ChatState> = {
      sessionId: d.session_id,
      status: d.status ?? this.state.status,
      agentId: d.agent_id ?? null,
    }
    if (fresh) {
      Object.assign(patch, { messages: [], rated: false, seenSeq: 0, queue: null })
      this.resume = new ResumePoint(null)
    }
    if (d.status === 'closed') Object.assign(patch, { queue: null, agentTyping: false })
    // open (again): the next close asks again
    if (d.status && d.status !== 'closed') Object.assign(patch, { rated: false, thanked: false })
    if (d.status && d.status !== 'waiting_human') patch.queue = null
    this.set(patch)
    this.persist()
    // the session exists now: the messages typed meanwhile go out
    if (fresh) this.flush()
  }

  private onMessage(f: Frame): void {
    if (f.type === 'ai-response' && f.data?.partial) {
      // pieces travel beside the stored answer (a relayed signal, not conversations' event): one arriving after the
      // answer itself is the beginning of an answer already shown
      const text = f.data.text
      const answered = this.state.messages.slice(-5).some((m) => m.sender === 'ai' && m.content.startsWith(text))
      if (typeof text === 'string' && !answered) this.set({ aiDraft: text })
      return
    }
    if (f.session_id && this.state.sessionId && f.session_id !== this.state.sessionId) return
    const m = fromFrame(f.type, f.data)
    if (!m) return
    this.resume.note(m.id, m.seq, Date.now())
    const before = this.state.messages
    const messages = insert(before, m)
    const patch: Partial<ChatState> = { messages }
    const cid = m.metadata.client_id
    if (m.sender === 'customer' && typeof cid === 'string') {
      patch.pending = this.state.pending.filter((p) => p.client_id !== cid)
      this.sent.delete(cid)
    }
    if (m.sender === 'ai') patch.aiDraft = null
    if (m.sender === 'agent') patch.agentTyping = false
    if (messages !== before && m.sender !== 'customer' && !this.isSeen()) {
      patch.unread = this.state.unread + 1
    }
    this.set(patch)
    this.persist()
    if (patch.unread !== undefined) this.hooks.unread(patch.unread)
    this.markRead()
  }

  private onError(d: any): void {
    const code = typeof d.code === 'string' ? d.code : 'UNKNOWN'
    // the stored credential no longer opens its session (deleted, another workspace's data): start afresh
    if (code === 'CONVERSATIONS_SESSION_NOT_FOUND' && this.syncToken) {
      this.credential = null
      this.syncToken = null
      save(this.tenantId, this.workspaceId, null)
      this.set({ sessionId: null, status: null, messages: [], seenSeq: 0, queue: null })
      this.flush()
      return
    }
    // a resume point the session lacks: joined from now, the transcript kept is still right up to it
    if (code === 'REALTIME_RESUME_UNKNOWN_MESSAGE' || code === 'REALTIME_RESUME_TOO_FAR') return
    const patch: Partial<ChatState> = { error: code }
    // a message refused for what it is (too long, its metadata, the scope takes no widget) would be refused again
    // at every reconnect: the oldest one sent and not echoed (the hub answers a socket's frames in order) is dropped
    if (REFUSES_MESSAGE.has(code)) {
      const refused = this.state.pending.find((p) => this.sent.has(p.client_id))
      if (refused) {
        this.sent.delete(refused.client_id)
        patch.pending = this.state.pending.filter((p) => p !== refused)
      }
    }
    this.set(patch)
  }

  private agentTyping(on: boolean): void {
    if (this.typingTimer) clearTimeout(this.typingTimer)
    this.typingTimer = on ? setTimeout(() => this.set({ agentTyping: false }), TYPING_MS) : null
    this.set({ agentTyping: on })
  }

  // --- what the visitor does ---

  /** Queue a message (with optional metadata, e.g. an attachment's) and send it as soon as it can go. */
  send(content: string, metadata: Record<string, unknown> = {}): void {
    const p: Pending = { client_id: clientId(), content, metadata: { ...metadata } }
    p.metadata.client_id = p.client_id
    this.set({ pending: [...this.state.pending, p], error: null })
    this.flush()
  }

  private flush(): void {
    if (!this.socket || this.state.conn !== 'online' || this.syncToken) return
    const { sessionId, pending } = this.state
    for (const p of pending) {
      if (this.sent.has(p.client_id)) {
        if (!sessionId) return
        continue
      }
      const frame = { type: 'text-message', data: { content: p.content, metadata: p.metadata } }
      if (!this.socket.send(sessionId ? { ...frame, session_id: sessionId } : frame)) return
      this.sent.add(p.client_id)
      // the first message starts the session; the others wait for its `session` frame
      if (!sessionId) return
    }
  }

  typing(state: 'start' | 'stop'): void {
    if (this.state.sessionId) this.socket?.send({ type: 'typing', data: { state }, session_id: this.state.sessionId })
  }

  talkToHuman(): void {
    const { sessionId } = this.state
    if (sessionId)
      this.socket?.send({ type: 'transfer-request', data: { reason: 'visitor asked' }, session_id: sessionId })
  }

  private isSeen(): boolean {
    return this.state.open && document.visibilityState === 'visible'
  }

  /** Tell the agent the visitor has seen up to the newest message not the visitor's own. */
  markRead(): void {
    const { sessionId, messages } = this.state
    if (!sessionId || !this.isSeen() || this.syncToken) return
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!
      if (m.sender === 'customer') continue
      if (
        m.seq > this.lastReadSent &&
        this.socket?.send({ type: 'read', data: { message_id: m.id }, session_id: sessionId })
      )
        this.lastReadSent = m.seq
      return
    }
  }

  /** The loader opened or closed the widget. */
  setOpen(open: boolean): void {
    this.set({ open, ...(open ? { unread: 0 } : {}) })
    if (open) {
      this.hooks.unread(0)
      // reopened: resume now (no socket is opened for a visitor who has not written yet)
      if (this.state.sessionId) this.socket?.wake()
      this.markRead()
    }
  }

  /** The tab became visible again: what arrived meanwhile is read now (the socket resumes on its own). */
  visible(): void {
    if (this.isSeen() && this.state.unread) {
      this.set({ unread: 0 })
      this.hooks.unread(0)
    }
    this.markRead()
  }

  setRated(thanked: boolean): void {
    this.set({ rated: true, thanked })
    this.persist()
  }

  dismissError(): void {
    this.set({ error: null })
  }
}
