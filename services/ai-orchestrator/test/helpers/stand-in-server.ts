import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import { createServer as createTcpServer } from 'node:net'

/**
 * The base of the test stand-ins (stand-ins.ts): a small real HTTP server on a free loopback port that answers
 * through one API's handler, or misbehaves as its mode says:
 * - `good`: the API as documented;
 * - `slow`: the good answer after `slowMs` (longer than the clients' timeouts in the tests);
 * - `error`: 500 with a JSON error body;
 * - `garbage`: 200 with a body that is not JSON (a stream of non-JSON events where a stream was asked for);
 * - `shape`: 200 with JSON of the wrong shape;
 * - `drop`: the connection closed without an answer.
 * `delayMs` is added to every answer in every mode (a provider that answers in 50 ms).
 */
export type StandInMode = 'good' | 'slow' | 'error' | 'garbage' | 'shape' | 'drop'

export interface RecordedRequest {
  method: string
  /** path and query as received */
  path: string
  headers: IncomingHttpHeaders
  /** the JSON body, parsed; the raw text when it is not JSON; undefined when empty */
  body: unknown
}

export interface StandInRequest {
  method: string
  /** the path without the query, split on `/` (decoded) */
  segments: string[]
  headers: IncomingHttpHeaders
  body: unknown
}

/** An answer: JSON, raw text, or server-sent events (`data:` payloads; `cut` stops before the end of the stream). */
export type Reply =
  | { status: number; json: unknown }
  | { status: number; text: string; contentType?: string }
  | { status: number; events: string[] }
  | { status: 204 }

export interface StandInOptions {
  mode?: StandInMode
  delayMs?: number
  slowMs?: number
  /** keep `requests` (default true; a benchmark turns it off) */
  record?: boolean
  /** the loopback address it listens on (default 127.0.0.1; another one, 127.0.0.2, is another host to a client) */
  host?: string
}

export interface StandIn {
  /** the base URL (with `/v1` where the API's base URLs include it) */
  readonly url: string
  readonly mode: StandInMode
  /** every request received, in order */
  readonly requests: RecordedRequest[]
  setMode(mode: StandInMode, opts?: { delayMs?: number; slowMs?: number }): void
  /** the next requests get these modes, one each, before the current mode applies again */
  nextModes(...modes: StandInMode[]): void
  close(): Promise<void>
}

/** How a handler's API answers the generic `garbage` and `shape` modes (default: HTML, and `{unexpected: true}`). */
export interface Misbehaviour {
  garbage?: (req: StandInRequest) => Reply
  shape?: (req: StandInRequest) => Reply
}

const parse = (text: string): unknown => {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function write(res: ServerResponse, reply: Reply) {
  if ('json' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json))
  } else if ('text' in reply) {
    res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'text/html' }).end(reply.text)
  } else if ('events' in reply) {
    res.writeHead(reply.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    for (const data of reply.events) res.write(`data: ${data}\n\n`)
    res.end()
  } else {
    res.writeHead(204).end()
  }
}

export async function startStandIn(
  basePath: '' | '/v1',
  handler: (req: StandInRequest) => Reply,
  opts: StandInOptions = {},
  misbehaviour: Misbehaviour = {},
): Promise<StandIn> {
  let mode: StandInMode = opts.mode ?? 'good'
  let delayMs = opts.delayMs ?? 0
  let slowMs = opts.slowMs ?? 5000
  const queued: StandInMode[] = []
  const requests: RecordedRequest[] = []
  const timers = new Set<NodeJS.Timeout>()
  const wait = (ms: number) =>
    ms <= 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer)
            resolve()
          }, ms)
          timers.add(timer)
        })

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = parse(Buffer.concat(chunks).toString('utf8'))
    const path = req.url ?? '/'
    if (opts.record !== false) requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body })
    const current = queued.shift() ?? mode
    await wait(delayMs + (current === 'slow' ? slowMs : 0))
    if (current === 'drop') return void req.socket.destroy()
    const pathname = new URL(path, 'http://stand-in').pathname
    const inside = pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : null
    const segments = (inside ?? '/not-found').split('/').filter(Boolean).map(decodeURIComponent)
    const request: StandInRequest = { method: req.method ?? 'GET', segments, headers: req.headers, body }
    if (current === 'error') return write(res, { status: 500, json: { error: 'stand-in failure', status: 500 } })
    if (current === 'garbage')
      return write(res, misbehaviour.garbage?.(request) ?? { status: 200, text: '<html>not json</html>' })
    if (current === 'shape')
      return write(res, misbehaviour.shape?.(request) ?? { status: 200, json: { unexpected: true } })
    try {
      write(res, handler(request))
    } catch (err) {
      write(res, { status: 500, json: { error: `stand-in handler failed: ${(err as Error).message}` } })
    }
  })
  const host = opts.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as { port: number }

  return {
    url: `http://${host}:${port}${basePath}`,
    get mode() {
      return mode
    },
    requests,
    setMode(next, o = {}) {
      mode = next
      if (o.delayMs !== undefined) delayMs = o.delayMs
      if (o.slowMs !== undefined) slowMs = o.slowMs
    },
    nextModes: (...modes) => void queued.push(...modes),
    async close() {
      for (const timer of timers) clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A URL where nothing listens: a port bound and closed again, so connecting is refused. */
export async function refusingUrl(basePath: '' | '/v1' = ''): Promise<string> {
  const probe = createTcpServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return `http://127.0.0.1:${port}${basePath}`
}

/** The words of a text, lower-cased (letters and digits of any script). */
export const words = (text: string) => text.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
