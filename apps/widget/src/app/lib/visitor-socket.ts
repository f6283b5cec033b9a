/**
 * The visitor's one WebSocket to the hub (`/api/v1/ws?tenant_id=&workspace_id=&embed_origin=`, anonymous: the
 * visitor credential is its proof, sent in `join`). Reconnects with backoff and jitter; `online`, the tab becoming
 * visible and the loader's reopen (`wake()`) reconnect at once when down, and otherwise ask the owner to resume
 * (rejoin with `after`), as the console's hub does (apps/console/src/lib/hub.ts).
 */
export type SocketState = 'connecting' | 'online' | 'reconnecting'

export interface Frame {
  type: string
  data: any
  session_id?: string | null
}

export interface SocketEvents {
  state(state: SocketState): void
  frame(frame: Frame): void
  /** the socket opened (again), or a wake found it open: (re)join now */
  ready(reconnected: boolean): void
}

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000, 15000]

export class VisitorSocket {
  private socket: WebSocket | null = null
  private attempt = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private everOnline = false
  state: SocketState = 'connecting'

  private readonly url: string
  private readonly on: SocketEvents

  constructor(url: string, on: SocketEvents) {
    this.url = url
    this.on = on
  }

  start(): void {
    window.addEventListener('online', this.wake)
    document.addEventListener('visibilitychange', this.onVisible)
    this.connect()
  }

  /** Sends a frame; false when the socket is not open (the caller keeps it to send after the rejoin). */
  send(frame: Frame): boolean {
    const s = this.socket
    if (!s || s.readyState !== WebSocket.OPEN) return false
    s.send(JSON.stringify(frame))
    return true
  }

  /** Reconnect now when down, else tell the owner to resume (a rejoin with `after` costs one page read). */
  readonly wake = (): void => {
    const s = this.socket
    if (!s || s.readyState === WebSocket.CLOSED || s.readyState === WebSocket.CLOSING) {
      if (this.timer) clearTimeout(this.timer)
      this.timer = null
      this.attempt = 0
      this.connect()
    } else if (s.readyState === WebSocket.OPEN) this.on.ready(true)
  }

  private readonly onVisible = (): void => {
    if (document.visibilityState === 'visible') this.wake()
  }

  private setState(state: SocketState): void {
    if (state === this.state) return
    this.state = state
    this.on.state(state)
  }

  private connect(): void {
    this.setState(this.everOnline ? 'reconnecting' : 'connecting')
    let socket: WebSocket
    try {
      socket = new WebSocket(this.url)
    } catch {
      this.retry()
      return
    }
    this.socket = socket
    socket.onopen = () => {
      if (this.socket !== socket) return
      this.attempt = 0
      const reconnected = this.everOnline
      this.everOnline = true
      this.setState('online')
      this.on.ready(reconnected)
    }
    socket.onmessage = (event) => {
      if (this.socket !== socket || typeof event.data !== 'string') return
      let frame: Frame
      try {
        frame = JSON.parse(event.data) as Frame
      } catch {
        return
      }
      if (frame && typeof frame.type === 'string') this.on.frame(frame)
    }
    socket.onclose = () => {
      if (this.socket !== socket) return
      this.socket = null
      this.retry()
    }
  }

  private retry(): void {
    if (this.timer) return
    this.setState(this.everOnline ? 'reconnecting' : 'connecting')
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!
    this.attempt++
    // jitter: a hub restart is not met by every visitor at the same instant
    const delay = base / 2 + Math.random() * (base / 2)
    this.timer = setTimeout(() => {
      this.timer = null
      this.connect()
    }, delay)
  }
}

export function socketUrl(tenantId: string, workspaceId: string, embedOrigin: string | null): string {
  const q = new URLSearchParams({ tenant_id: tenantId, workspace_id: workspaceId })
  if (embedOrigin) q.set('embed_origin', embedOrigin)
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/v1/ws?${q}`
}
