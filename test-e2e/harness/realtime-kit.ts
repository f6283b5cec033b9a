// Real WebSocket clients of the realtime hub (services/realtime-voice) through a gateway's URL, for the realtime
// e2e files: anonymous (a widget visitor) or with a token (a customer, an agent console, a service), every frame
// kept in order, waits for a frame of a type with a timeout, and a reconnect that rides out a replica's death.
import { type Opened, type Refused, wsConnect } from '@switchboard/testing'

/** A frame the hub sent, parsed (services/realtime-voice/README.md "The socket protocol"). */
export interface Frame {
  type: string
  data: any
  session_id: string | null
  timestamp: string
}

/** The frame types a message travels as (customer, agent, AI, system). */
export const MESSAGE_TYPES = ['text-message', 'agent-message', 'ai-response', 'system'] as const

export const isMessage = (f: Frame, sessionId?: string) =>
  (MESSAGE_TYPES as readonly string[]).includes(f.type) &&
  typeof f.data?.message_id === 'string' &&
  (sessionId === undefined || f.session_id === sessionId)

/** A noisy two-core machine: a frame that is coming arrives well within this. */
export const FRAME_TIMEOUT_MS = 15_000

export interface SocketOptions {
  /** an access token; none: anonymous (a widget visitor) */
  token?: string
  /** how the token travels: the Authorization header (a server-side client) or a `bearer.` sub-protocol (a browser) */
  via?: 'header' | 'protocol'
  /** the upgrade's query: a widget's `tenant_id`/`workspace_id`, or `session_id`/`after` */
  query?: Record<string, string>
  headers?: Record<string, string>
}

export interface RealtimeSocket {
  readonly ws: Opened['ws']
  /** the gateway it went through */
  readonly gateway: string
  /** every frame received so far, in order (taken or not) */
  readonly frames: Frame[]
  /** the next frame of `type` not taken yet (and matching, when given), waiting for it; it is then taken */
  next(type: string, opts?: { match?: (f: Frame) => boolean; timeoutMs?: number; what?: string }): Promise<Frame>
  /** the next frame not taken yet that matches, waiting for it; it is then taken */
  take(match: (f: Frame) => boolean, what: string, timeoutMs?: number): Promise<Frame>
  /** a frame as the protocol has it: `{type, data, session_id}` */
  send(frame: { type: string; data?: unknown; session_id?: string | null }): void
  sendRaw(data: string | Buffer, binary?: boolean): void
  /** a ping and its pong: every frame the hub sent this socket before answering it has arrived */
  sync(): Promise<void>
  /** the message frames of a session received so far, in order */
  messages(sessionId: string): Frame[]
  /** their seqs */
  seqs(sessionId: string): number[]
  /** the `error` frames received so far */
  errors(): Frame[]
  readonly closed: Promise<{ code: number; reason: string }>
  isOpen(): boolean
  close(): void
}

const isRefused = <T extends object>(r: T | Refused): r is Refused => 'status' in r

function queryOf(q: Record<string, string> | undefined): string {
  const s = q ? new URLSearchParams(q).toString() : ''
  return s ? `?${s}` : ''
}

/** Opens a socket through `gateway` (http URL): the socket, or the HTTP answer that refused the upgrade. */
export async function connectSocket(gateway: string, opts: SocketOptions = {}): Promise<RealtimeSocket | Refused> {
  const headers: Record<string, string> = { ...opts.headers }
  let protocols: string[] | undefined
  if (opts.token && opts.via === 'protocol') protocols = ['switchboard.v1', `bearer.${opts.token}`]
  else if (opts.token) headers.authorization = `Bearer ${opts.token}`
  // wsConnect listens from before the open and queues every message, so nothing said at once is missed
  const r = await wsConnect(gateway, `/api/v1/ws${queryOf(opts.query)}`, {
    headers,
    ...(protocols ? { protocols } : {}),
    greeting: false,
  })
  if (isRefused(r)) return r
  return socketOf(r, gateway)
}

/** Opens a socket or fails naming the refusal; given a test, the socket is terminated at its end. */
export async function openSocket(
  gateway: string,
  opts: SocketOptions = {},
  test?: { teardown(fn: () => unknown): void },
): Promise<RealtimeSocket> {
  const r = await connectSocket(gateway, opts)
  if (isRefused(r)) throw new Error(`upgrade refused with ${r.status}: ${JSON.stringify(r.body)}`)
  test?.teardown(() => r.ws.terminate())
  return r
}

/**
 * Reconnects as a client does after its socket dropped: tries again (every 200 ms, within `timeoutMs`) while the
 * gateway answers 502/503/504 or the connection fails — the gateway may still pick a replica that just died.
 * Answers the socket and how many attempts it took.
 */
export async function reconnectSocket(
  gateway: string,
  opts: SocketOptions,
  test?: { teardown(fn: () => unknown): void },
  timeoutMs = FRAME_TIMEOUT_MS,
): Promise<{ socket: RealtimeSocket; attempts: number; refusals: number[] }> {
  const deadline = Date.now() + timeoutMs
  const refusals: number[] = []
  for (let attempts = 1; ; attempts++) {
    let last: string
    const r = await connectSocket(gateway, opts).catch((err: Error) => err)
    if (r instanceof Error) last = String(r)
    else if (!isRefused(r)) {
      test?.teardown(() => r.ws.terminate())
      return { socket: r, attempts, refusals }
    } else if ([502, 503, 504].includes(r.status)) {
      refusals.push(r.status)
      last = `${r.status} ${JSON.stringify(r.body)}`
    } else throw new Error(`upgrade refused with ${r.status}: ${JSON.stringify(r.body)}`)
    if (Date.now() > deadline) throw new Error(`no socket through ${gateway} within ${timeoutMs} ms: ${last}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

function socketOf(opened: Opened, gateway: string): RealtimeSocket {
  const { ws } = opened
  // after the open, a protocol error is the close's business; an unheard 'error' would end the test process
  ws.on('error', () => {})
  const frames: Frame[] = []
  const taken = new Set<number>()
  const waiters = new Set<() => void>()
  let pings = 0
  // every message the client half received, in order (text frames; the hub sends nothing else)
  void (async () => {
    for (;;) {
      const m = await opened.next()
      let f: Frame
      try {
        f = JSON.parse(String(m)) as Frame
      } catch {
        f = { type: '(not JSON)', data: String(m), session_id: null, timestamp: '' }
      }
      frames.push(f)
      for (const w of [...waiters]) w()
    }
  })()

  const take = (match: (f: Frame) => boolean, what: string, timeoutMs = FRAME_TIMEOUT_MS) =>
    new Promise<Frame>((resolve, reject) => {
      const look = () => {
        const i = frames.findIndex((f, n) => !taken.has(n) && match(f))
        if (i === -1) return false
        taken.add(i)
        waiters.delete(look)
        clearTimeout(timer)
        resolve(frames[i]!)
        return true
      }
      const timer = setTimeout(() => {
        waiters.delete(look)
        const seen = frames.map((f) => (f.type === 'error' ? `error:${f.data?.code}` : f.type))
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; received ${JSON.stringify(seen)}`))
      }, timeoutMs)
      if (!look()) waiters.add(look)
    })

  const socket: RealtimeSocket = {
    ws,
    gateway,
    frames,
    next: (type, opts = {}) =>
      take((f) => f.type === type && (opts.match?.(f) ?? true), opts.what ?? `a ${type} frame`, opts.timeoutMs),
    take,
    send: (frame) => ws.send(JSON.stringify(frame)),
    sendRaw: (data, binary = false) => ws.send(data, { binary }),
    async sync() {
      const id = `sync-${++pings}`
      socket.send({ type: 'ping', session_id: id })
      await take((f) => f.type === 'pong' && f.session_id === id, `the pong of ${id}`)
    },
    messages: (sessionId) => frames.filter((f) => isMessage(f, sessionId)),
    seqs: (sessionId) => socket.messages(sessionId).map((f) => f.data.seq as number),
    errors: () => frames.filter((f) => f.type === 'error'),
    closed: opened.closed,
    isOpen: () => ws.readyState === ws.OPEN,
    close: () => ws.close(1000),
  }
  return socket
}

/** 1, 2, …, n */
export const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)
/** from, from + 1, …, to */
export const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i)
