// The chaos bench's client side (chaos.bench.ts): every request it makes kept in one book (kind, when sent and
// answered, status), and the hub sockets that reconnect and resume as the console and widget do, each keeping the
// seqs of the messages it received per session so that a lost or doubled frame shows.
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type { Opened } from '@switchboard/testing'

type WebSocket = Opened['ws']
/**
 * The `ws` client the testing package uses (test-e2e does not depend on it by name). Not `wsConnect`: its listener
 * queues the frames that come with the upgrade's answer, before a caller can attach its own — a console's first
 * frames after a reconnect (its assigned sessions', unasked) would be lost to the count.
 */
const WebSocketClient = createRequire(import.meta.resolve('@switchboard/testing'))('ws') as new (
  url: string,
  protocols: string[],
) => WebSocket
const OPEN = 1

/** One request of the mix: ms since the run began; status 0 = no answer (reset, timeout). */
export interface Sent {
  kind: string
  sent: number
  done: number
  status: number
  ok: boolean
  request_id: string
  /** refused connections retried on the other gateway first (what a load balancer does: nothing was sent) */
  refused: number
  /** why there was no answer (the connection's error code) */
  error?: string
}

const REFUSED = new Set(['ECONNREFUSED'])

/** Requests through the two gateways, alternately, as one load balancer in front of them would spread them. */
export function requestBook(gateways: readonly string[], origin: number) {
  const all: Sent[] = []
  let turn = 0
  const now = () => performance.now() - origin
  async function call(
    kind: string,
    method: string,
    path: string,
    opts: { token?: string; headers?: Record<string, string>; body?: unknown; expect?: number } = {},
  ): Promise<{ entry: Sent; body: any }> {
    const request_id = `chaos-${randomBytes(8).toString('hex')}`
    const entry: Sent = { kind, sent: now(), done: 0, status: 0, ok: false, request_id, refused: 0 }
    all.push(entry)
    const headers: Record<string, string> = { 'x-request-id': request_id, ...opts.headers }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    let body: any
    const first = turn++ % gateways.length
    for (let attempt = 0; attempt < gateways.length; attempt++) {
      const gateway = gateways[(first + attempt) % gateways.length]!
      try {
        const res = await fetch(new URL(path, gateway), {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal: AbortSignal.timeout(15_000),
        })
        const text = await res.text()
        entry.status = res.status
        body = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text
        break
      } catch (err) {
        const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name
        entry.error = code
        if (!REFUSED.has(code)) break
        entry.refused++
      }
    }
    entry.done = now()
    entry.ok = entry.status === (opts.expect ?? 200)
    return { entry, body }
  }
  return { call, all, now }
}
export type RequestBook = ReturnType<typeof requestBook>

/** A message frame's fields a follower keeps. */
interface MessageFrame {
  message_id: string
  seq: number
  content: string
}

const MESSAGE_FRAMES = new Set(['text-message', 'agent-message', 'ai-response', 'system'])

/**
 * A hub client that follows sessions: joins each with `after` = the last message it saw, and does it again on a
 * fresh socket (through the other gateway) whenever its socket closes — the console's and widget's resume. Per
 * session it keeps every seq received, so a gap or a second delivery is seen; a customer's text-message is
 * accepted when its own frame comes back (error frame: refused).
 */
export function follower(opts: {
  name: string
  gateways: readonly string[]
  token: () => string
  /** session id → the id of the last message seen before the follower starts (the session's first message) */
  sessions: ReadonlyMap<string, string>
  now: () => number
  /** which gateway its first socket goes through (then the other one, in turn) */
  firstGateway?: number
}) {
  // per session: the newest message seen (highest seq), what a rejoin names as `after` — as the console does
  const last = new Map(opts.sessions)
  const lastSeq = new Map<string, number>()
  const seqs = new Map<string, number[]>([...opts.sessions.keys()].map((s) => [s, []]))
  /** per session, the socket (1, 2, …) each of `seqs` came on */
  const sockets = new Map<string, number[]>([...opts.sessions.keys()].map((s) => [s, []]))
  /** per session, when each of `seqs` came (ms since the run began) */
  const times = new Map<string, number[]>([...opts.sessions.keys()].map((s) => [s, []]))
  /** per session, the seq each rejoin resumed after */
  const resumedAfter = new Map<string, number[]>([...opts.sessions.keys()].map((s) => [s, []]))
  let socketNo = 0
  const contents = new Map<string, number>()
  const reconnects: Array<{ closed_at: number; code: number; resumed_at: number }> = []
  const errors: string[] = []
  let ws: WebSocket | undefined
  let gatewayTurn = opts.firstGateway ?? 0
  let stopped = false
  let live = false
  /** the customer's text-message waiting for its own frame: [content, resolve] */
  let pending: { content: string; done: (ok: boolean) => void } | undefined

  const onFrame = (data: Buffer) => {
    let f: { type?: string; session_id?: string; data?: any }
    try {
      f = JSON.parse(data.toString())
    } catch {
      return
    }
    if (f.type === 'error') {
      errors.push(`${String(f.data?.code)} at ${(opts.now() / 1000).toFixed(2)} s`)
      if (pending) {
        pending.done(false)
        pending = undefined
      }
      return
    }
    if (!f.type || !MESSAGE_FRAMES.has(f.type) || f.data?.partial) return
    const m = f.data as MessageFrame
    const list = seqs.get(f.session_id ?? '')
    if (!list) return
    list.push(m.seq)
    sockets.get(f.session_id!)!.push(socketNo)
    times.get(f.session_id!)!.push(opts.now())
    if (m.seq > (lastSeq.get(f.session_id!) ?? 0)) {
      lastSeq.set(f.session_id!, m.seq)
      last.set(f.session_id!, m.message_id)
    }
    contents.set(m.content, (contents.get(m.content) ?? 0) + 1)
    if (pending && m.content === pending.content) {
      pending.done(true)
      pending = undefined
    }
  }

  /** Opens a socket and joins every session from where it left off; resolves once every join was answered. */
  async function connect(): Promise<void> {
    const gateway = opts.gateways[gatewayTurn++ % opts.gateways.length]!
    const socket = new WebSocketClient(`${gateway.replace(/^http/, 'ws')}/api/v1/ws`, [
      'switchboard.v1',
      `bearer.${opts.token()}`,
    ])
    socket.on('error', () => {})
    ws = socket
    socketNo++
    const answered = new Map<string, (err?: Error) => void>()
    // attached before the socket opens: no frame goes uncounted
    socket.on('message', (data: Buffer) => {
      const f = JSON.parse(data.toString()) as { type?: string; session_id?: string; data?: any }
      if (f.type === 'session' && answered.has(f.data?.session_id ?? f.session_id)) {
        const id = f.data?.session_id ?? f.session_id
        answered.get(id)!()
        answered.delete(id)
        return
      }
      onFrame(data)
    })
    const joins: Array<Promise<void>> = []
    const opened = new Promise<void>((resolve, reject) => {
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
      socket.once('close', (code) => reject(new Error(`closed (${code}) before it opened`)))
      // every join at once, each `after` taken as the socket opens — as the console does: a frame that comes before
      // a join is handled (a console follows its assigned sessions unasked) must not move that join's resume point
      socket.once('open', () => {
        for (const [session, after] of last) {
          joins.push(
            new Promise<void>((done, fail) => {
              const timer = setTimeout(() => fail(new Error(`${opts.name}: no answer to join ${session}`)), 15_000)
              answered.set(session, (err) => {
                clearTimeout(timer)
                if (err) fail(err)
                else done()
              })
            }),
          )
          if (socketNo > 1) resumedAfter.get(session)!.push(lastSeq.get(session) ?? 0)
          socket.send(JSON.stringify({ type: 'join', data: { session_id: session, after } }))
        }
        resolve()
      })
    })
    socket.once('close', (code) => {
      const wasLive = live
      live = false
      if (pending) {
        pending.done(false)
        pending = undefined
      }
      for (const fail of answered.values()) fail(new Error(`${opts.name}: closed (${code}) while joining`))
      answered.clear()
      // a socket that closed while it joined is retried by the loop that opened it
      if (stopped || !wasLive) return
      const closedAt = opts.now()
      void reconnect(closedAt, code)
    })
    await opened
    await Promise.all(joins)
    live = true
  }

  async function reconnect(closedAt: number, code: number) {
    for (let attempt = 0; !stopped; attempt++) {
      await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** attempt)))
      try {
        await connect()
        reconnects.push({ closed_at: closedAt, code, resumed_at: opts.now() })
        return
      } catch {
        ws?.terminate()
      }
    }
  }

  return {
    name: opts.name,
    connect,
    get live() {
      return live && ws?.readyState === OPEN && pending === undefined
    },
    /** a customer's message on the socket: true when its own frame came back, false when refused or cut off */
    say(session: string, content: string): Promise<boolean> {
      return new Promise((done) => {
        pending = { content, done }
        ws!.send(JSON.stringify({ type: 'text-message', session_id: session, data: { content } }))
        setTimeout(() => {
          if (pending?.content === content) {
            pending = undefined
            done(false)
          }
        }, 15_000).unref()
      })
    },
    get connected() {
      return live && ws?.readyState === OPEN
    },
    seqs,
    sockets,
    times,
    resumedAfter,
    contents,
    reconnects,
    errors,
    stop() {
      stopped = true
      ws?.terminate()
    },
  }
}
export type Follower = ReturnType<typeof follower>
