import WebSocket from 'ws'
import type { Handshake } from './ws-echo.ts'

/** An open socket through the gateway, after the echo service's hello. */
export interface Opened {
  ws: WebSocket
  /** the next message (text as a string, binary as a Buffer) */
  next(): Promise<string | Buffer>
  hello: Handshake
  closed: Promise<{ code: number; reason: string }>
}
/** The HTTP answer that refused the upgrade, its body parsed. */
export type Refused = { status: number; body: Record<string, unknown> }

/**
 * Connects a WebSocket client to `base + path` (http URL): either an open socket (resolved once the
 * echo service's hello arrived) or the HTTP refusal.
 */
export function wsConnect(
  base: string,
  path = '/api/v1/ws',
  opts: {
    headers?: object
    protocols?: string[] /** resolve at open, without waiting for the hello */
    greeting?: boolean
  } = {},
) {
  return new Promise<Opened | Refused>((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, opts.protocols ?? [], { headers: { ...opts.headers } })
    const queue: Array<string | Buffer> = []
    const waiting: Array<(m: string | Buffer) => void> = []
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      ws.once('close', (code, reason) => r({ code, reason: reason.toString() })),
    )
    ws.on('message', (data: Buffer, isBinary) => {
      const m = isBinary ? data : data.toString()
      const w = waiting.shift()
      if (w) w(m)
      else queue.push(m)
    })
    const next = () => new Promise<string | Buffer>((r) => (queue.length ? r(queue.shift()!) : waiting.push(r)))
    ws.once('open', async () => {
      if (opts.greeting === false) return resolve({ ws, next, hello: {} as Handshake, closed })
      const hello = JSON.parse(String(await next())).data as Handshake
      resolve({ ws, next, hello, closed })
    })
    ws.once('unexpected-response', (_req, res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }))
    })
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err)
    })
  })
}

/**
 * The open socket, or an error naming the refusal; given a test, the socket is terminated at its teardown.
 */
export function wsOpened(r: Opened | Refused, test?: { teardown(fn: () => unknown): void }): Opened {
  if ('status' in r) throw new Error(`upgrade refused with ${r.status}: ${JSON.stringify(r.body)}`)
  test?.teardown(() => r.ws.terminate())
  return r
}
