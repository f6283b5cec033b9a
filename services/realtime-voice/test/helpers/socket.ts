import type { Principal } from '@switchboard/contracts'
import type { Test } from 'tap'
import WebSocket from 'ws'
import { headersOf } from './hub.ts'

/** A frame the hub sent, parsed. */
export interface Frame {
  type: string
  data: any
  session_id: string | null
  timestamp: string
}

export interface Sock {
  ws: WebSocket
  /** every frame received so far, in order */
  frames: Frame[]
  /** the next frame (after those already taken) that matches, waiting for it if need be */
  take(match: (f: Frame) => boolean, what?: string, timeoutMs?: number): Promise<Frame>
  send(frame: object): void
  sendRaw(data: string | Buffer, binary?: boolean): void
  /** a round trip: every frame the hub sent before answering this ping has arrived */
  sync(): Promise<void>
  closed: Promise<{ code: number; reason: string }>
}

/** The HTTP answer that refused an upgrade. */
export interface Refused {
  status: number
  body: any
}

/**
 * A real WebSocket client of a hub replica, as the gateway relays one: the principal the gateway signs (none for
 * an anonymous visitor) and the client's query string. Terminated at the test's end.
 */
export async function open(
  t: Test,
  url: string,
  opts: { principal?: Principal; query?: Record<string, string>; ws?: WebSocket.ClientOptions } = {},
): Promise<Sock> {
  const r = await connect(url, opts)
  if ('status' in r) throw new Error(`upgrade refused with ${r.status}: ${JSON.stringify(r.body)}`)
  t.teardown(() => r.ws.terminate())
  return r
}

export async function connect(
  url: string,
  opts: { principal?: Principal; query?: Record<string, string>; ws?: WebSocket.ClientOptions } = {},
): Promise<Sock | Refused> {
  const q = opts.query ? `?${new URLSearchParams(opts.query)}` : ''
  const headers = opts.principal ? await headersOf(opts.principal) : {}
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/ws${q}`, { headers, ...opts.ws })
  const frames: Frame[] = []
  const taken = new Set<number>()
  const waiters = new Set<() => void>()
  ws.on('message', (data: Buffer) => {
    frames.push(JSON.parse(data.toString()))
    for (const w of waiters) w()
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  let pings = 0

  const sock: Sock = {
    ws,
    frames,
    take(match, what = 'a frame', timeoutMs = 5000) {
      return new Promise<Frame>((resolve, reject) => {
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
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(frames.map((f) => f.type))}`))
        }, timeoutMs)
        if (!look()) waiters.add(look)
      })
    },
    send: (frame) => ws.send(JSON.stringify(frame)),
    sendRaw: (data, binary = false) => ws.send(data, { binary }),
    async sync() {
      const id = `sync-${++pings}`
      sock.send({ type: 'ping', session_id: id })
      await sock.take((f) => f.type === 'pong' && f.session_id === id, 'pong')
    },
    closed,
  }
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(sock))
    ws.once('unexpected-response', (_req, res) => {
      let text = ''
      res.on('data', (c: Buffer) => {
        text += c
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }))
    })
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err)
    })
  })
}

/** Message frames (by sender type) of a session, in the order they came. */
export const messagesOf = (s: Sock, sessionId: string) =>
  s.frames.filter(
    (f) =>
      ['text-message', 'agent-message', 'ai-response', 'system'].includes(f.type) &&
      f.session_id === sessionId &&
      f.data?.message_id,
  )
