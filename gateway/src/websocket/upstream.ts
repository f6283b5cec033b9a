import type { IncomingMessage } from 'node:http'
import WebSocket from 'ws'
import { GatewayErrors } from '../errors.ts'
import type { Headers } from '../plugins/proxy.ts'

/** Handshake headers `ws` makes itself for the upstream connection; the client's copies are not forwarded. */
const HANDSHAKE = ['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol']
/** An upstream's refusal body is relayed to the client up to this size. */
const REFUSAL_MAX_BYTES = 16 * 1024

/** The upstream said no to the upgrade with an HTTP answer: the client gets that answer. */
export class UpstreamRefusal extends Error {
  readonly status: number
  readonly contentType: string | undefined
  readonly body: Buffer
  constructor(status: number, contentType: string | undefined, body: Buffer) {
    super(`upstream refused the upgrade with ${status}`)
    this.status = status
    this.contentType = contentType
    this.body = body
  }
}

export interface UpstreamSocketOptions {
  /** ws:// or wss:// URL of the upstream path (query string included) */
  url: string
  protocols: string[]
  headers: Headers
  handshakeTimeoutMs: number
  maxPayload: number
  service: string
}

function readRefusal(res: IncomingMessage): Promise<UpstreamRefusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      const type = res.headers['content-type']
      resolve(new UpstreamRefusal(res.statusCode ?? 502, type, Buffer.concat(chunks)))
    }
    res.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= REFUSAL_MAX_BYTES) chunks.push(chunk)
    })
    res.once('end', done)
    res.once('error', done)
    res.once('close', done)
  })
}

/**
 * Opens the upstream half before the client's upgrade is accepted, so that a refused, slow or dead
 * upstream becomes 502/504 (or the upstream's own refusal) on the client's still-HTTP request.
 * The socket comes back paused: what the upstream says at once waits until the caller listens and resumes.
 */
export function openUpstreamSocket(opts: UpstreamSocketOptions): Promise<WebSocket> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(opts.headers)) {
    if (value === undefined || HANDSHAKE.includes(name)) continue
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const socket = new WebSocket(opts.url, opts.protocols, {
    headers,
    handshakeTimeout: opts.handshakeTimeoutMs,
    maxPayload: opts.maxPayload,
    perMessageDeflate: false,
    followRedirects: false,
  })
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (err: Error) => {
      if (settled) return
      settled = true
      reject(err)
    }
    socket.once('open', () => {
      socket.pause() // now, synchronously: a greeting may already sit in the handshake's last read
      socket.removeAllListeners('error')
      socket.removeAllListeners('unexpected-response')
      settled = true
      resolve(socket)
    })
    socket.once('unexpected-response', (req, res) => {
      void readRefusal(res).then((refusal) => {
        fail(refusal)
        req.destroy()
      })
    })
    socket.on('error', (err: Error & { code?: string }) => {
      const timeout = /timed out/i.test(err.message) || err.code === 'ETIMEDOUT'
      fail(
        timeout
          ? new GatewayErrors.UpstreamTimeout(opts.service, { cause: err })
          : new GatewayErrors.UpstreamUnavailable(opts.service, { cause: err }),
      )
    })
  })
}

/** http(s)://host/base + /api/v1/ws?… → ws(s)://host/base/api/v1/ws?… */
export function upstreamWsUrl(base: string, requestUrl: string): string {
  return base.replace(/^http/, 'ws').replace(/\/+$/, '') + requestUrl
}
