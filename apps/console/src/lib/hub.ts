/**
 * One WebSocket to the hub (`/api/v1/ws`) for the whole console. The token goes as the sub-protocol
 * `bearer.<token>` beside `switchboard.v1` (a browser cannot set headers on a WebSocket; gateway/README.md).
 * Reconnects with backoff; on every reconnect, `online` event and tab becoming visible it rejoins each open
 * conversation with `after` = the last message it saw (the hub resumes without gap or duplicate) and tells resync
 * listeners to refetch what changed since the last `server_time` a list answered.
 */

import { ResumePoint } from '@switchboard/contracts/hub-resume.ts'
import { expireSession, getAccessToken, refreshAccessToken } from './http.ts'

export type HubState = 'idle' | 'connecting' | 'online' | 'reconnecting'

export interface HubFrame<D = any> {
  type: string
  data: D
  session_id?: string
  timestamp?: string
}

/** A message frame's data (text-message, agent-message, ai-response, system). */
export interface MessageFrameData {
  message_id: string
  seq: number
  sender: string
  sender_id: string | null
  kind: string
  content: string
  metadata: Record<string, unknown>
  created_at: string
}

export const MESSAGE_FRAME_TYPES = new Set(['text-message', 'agent-message', 'ai-response', 'system'])

type Listener<T> = (value: T) => void

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000, 15000]
/** How long a connection attempt may take before it is given up and retried. */
export const CONNECT_TIMEOUT_MS = 10_000

export class Hub {
  private socket: WebSocket | null = null
  private current: HubState = 'idle'
  private attempt = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private running = false
  private everOnline = false
  private readonly stateListeners = new Set<Listener<HubState>>()
  private readonly frameListeners = new Set<Listener<HubFrame>>()
  private readonly resyncListeners = new Set<Listener<string | null>>()
  /** open conversations: how many views hold each, and the point to resume after (see `noteMessage`) */
  private readonly joined = new Map<string, { holders: number; resume: ResumePoint }>()
  private serverTime: string | null = null

  get state(): HubState {
    return this.current
  }

  /** The last `server_time` a list answered: what a resync asks for with `changed_since`. */
  get lastServerTime(): string | null {
    return this.serverTime
  }

  noteServerTime(time: string | null | undefined): void {
    if (time && (!this.serverTime || time > this.serverTime)) this.serverTime = time
  }

  start(): void {
    if (this.running) return
    this.running = true
    window.addEventListener('online', this.wake)
    document.addEventListener('visibilitychange', this.onVisible)
    this.connect()
  }

  stop(): void {
    this.running = false
    window.removeEventListener('online', this.wake)
    document.removeEventListener('visibilitychange', this.onVisible)
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const socket = this.socket
    this.socket = null
    socket?.close(1000)
    this.joined.clear()
    this.serverTime = null
    this.everOnline = false
    this.setState('idle')
  }

  subscribeState(listener: Listener<HubState>): () => void {
    this.stateListeners.add(listener)
    return () => this.stateListeners.delete(listener)
  }

  onFrame(listener: Listener<HubFrame>): () => void {
    this.frameListeners.add(listener)
    return () => this.frameListeners.delete(listener)
  }

  /** Called after a reconnect (or wake) with the last server time: refetch what changed since then. */
  onResync(listener: Listener<string | null>): () => void {
    this.resyncListeners.add(listener)
    return () => this.resyncListeners.delete(listener)
  }

  /** Follow a conversation live; the returned function leaves it (when its last holder lets go). */
  join(sessionId: string, after?: string | null): () => void {
    const entry = this.joined.get(sessionId)
    if (entry) entry.holders++
    else {
      this.joined.set(sessionId, { holders: 1, resume: new ResumePoint(after ?? null) })
      this.sendJoin(sessionId)
    }
    return () => {
      const held = this.joined.get(sessionId)
      if (!held) return
      held.holders--
      if (held.holders > 0) return
      this.joined.delete(sessionId)
      this.send({ type: 'leave', data: { session_id: sessionId } })
    }
  }

  /** Record a message the console has, for the next `after` (contracts' hub-resume.ts: only over messages held without a gap). */
  noteMessage(sessionId: string, messageId: string, seq: number, now = Date.now()): void {
    this.joined.get(sessionId)?.resume.note(messageId, seq, now)
  }

  /** Send a frame; false when the socket is not open (the caller shows it as not sent). */
  send(frame: { type: string; data?: unknown; session_id?: string }): boolean {
    const socket = this.socket
    if (!socket || socket.readyState !== WebSocket.OPEN) return false
    socket.send(JSON.stringify(frame))
    return true
  }

  private sendJoin(sessionId: string): void {
    const entry = this.joined.get(sessionId)
    const data: Record<string, string> = { session_id: sessionId }
    if (entry?.resume.after) data.after = entry.resume.after
    this.send({ type: 'join', data, session_id: sessionId })
  }

  private setState(state: HubState): void {
    if (state === this.current) return
    this.current = state
    for (const listener of this.stateListeners) listener(state)
  }

  private connect(): void {
    if (!this.running) return
    const token = getAccessToken()
    if (!token) {
      this.retry()
      return
    }
    this.setState(this.everOnline ? 'reconnecting' : 'connecting')
    const url = `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}/api/v1/ws`
    let socket: WebSocket
    try {
      socket = new WebSocket(url, ['switchboard.v1', `bearer.${token}`])
    } catch {
      this.retry()
      return
    }
    this.socket = socket
    let opened = false
    // An attempt whose handshake never ends (a dead path, a blocked address: Chromium then fires no close event) is
    // given up and retried, instead of waiting for an `online` or a tab switch that may never come.
    const giveUp = setTimeout(() => {
      if (this.socket !== socket || opened) return
      this.socket = null
      socket.onopen = socket.onmessage = socket.onclose = null
      socket.close()
      this.retry()
    }, CONNECT_TIMEOUT_MS)
    socket.onopen = () => {
      clearTimeout(giveUp)
      if (this.socket !== socket) return
      opened = true
      this.attempt = 0
      const resumed = this.everOnline
      this.everOnline = true
      this.setState('online')
      for (const sessionId of this.joined.keys()) this.sendJoin(sessionId)
      if (resumed) this.resync()
    }
    socket.onmessage = (event) => {
      if (this.socket !== socket || typeof event.data !== 'string') return
      let frame: HubFrame
      try {
        frame = JSON.parse(event.data) as HubFrame
      } catch {
        return
      }
      this.track(frame)
      for (const listener of this.frameListeners) listener(frame)
    }
    socket.onclose = (event) => {
      clearTimeout(giveUp)
      if (this.socket !== socket) return
      this.socket = null
      // 4401: the gateway no longer accepts the token (expired, the session refreshed in another tab, revoked);
      // refused before opening may be the same. A refresh through the cookie decides: a new token reconnects at
      // once, a refused refresh ends the session (the login page), a server that cannot answer is retried.
      if (event.code === 4401 || !opened) {
        this.setState(this.everOnline ? 'reconnecting' : 'connecting')
        refreshAccessToken().then(
          (token) => {
            if (!token) expireSession()
            else if (event.code === 4401 && this.attempt === 0) {
              // at once, but only once in a row: a token refused again waits its backoff
              this.attempt++
              this.connect()
            } else this.retry()
          },
          () => this.retry(),
        )
        return
      }
      this.retry()
    }
  }

  private track(frame: HubFrame): void {
    if (!MESSAGE_FRAME_TYPES.has(frame.type) || !frame.session_id) return
    const data = frame.data as Partial<MessageFrameData>
    if (data?.message_id && typeof data.seq === 'number') this.noteMessage(frame.session_id, data.message_id, data.seq)
  }

  private retry(): void {
    if (!this.running || this.timer) return
    if (this.everOnline) this.setState('reconnecting')
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!
    this.attempt++
    // jitter so a fleet restart is not met by every console at the same instant
    const delay = base / 2 + Math.random() * (base / 2)
    this.timer = setTimeout(() => {
      this.timer = null
      this.connect()
    }, delay)
  }

  private resync(): void {
    for (const listener of this.resyncListeners) listener(this.serverTime)
  }

  /** `online` or the tab visible again: reconnect now if down, else rejoin (resume) and refetch. */
  private readonly wake = (): void => {
    if (!this.running) return
    const socket = this.socket
    if (!socket || socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) {
      if (this.timer) clearTimeout(this.timer)
      this.timer = null
      this.attempt = 0
      this.connect()
      return
    }
    if (socket.readyState !== WebSocket.OPEN) return
    for (const sessionId of this.joined.keys()) this.sendJoin(sessionId)
    this.resync()
  }

  private readonly onVisible = (): void => {
    if (document.visibilityState === 'visible') this.wake()
  }
}

/** The console's one hub. */
export const hub = new Hub()
