// The realtime bench's client side (realtime.bench.ts): message posts on a keep-alive pool, the book that pairs each
// post with its frames, sockets opened in bulk, a paced sender and the wait for the last deliveries.
import { Agent as HttpAgent, request } from 'node:http'
import { type Opened, wsConnect, wsOpened } from '@switchboard/testing'
import { percentile } from './lib.ts'

/** posts in flight at once at most: a paced sender never floods the gateway's pool */
const MAX_IN_FLIGHT = 256

export type Socket = Opened['ws']

/** Posts `{content}` as JSON on a keep-alive pool; resolves with the status (0: no answer). */
export function poster(base: string, token: string) {
  const url = new URL(base)
  const agent = new HttpAgent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT })
  const post = (path: string, content: string) =>
    new Promise<number>((resolve) => {
      const body = JSON.stringify({ content })
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.setTimeout(15_000, () => req.destroy())
      req.on('error', () => resolve(0))
      req.end(body)
    })
  return { post, close: () => agent.destroy() }
}

/**
 * Posts that frames are matched to by the number in their content (`bench <n>`): the number is known before the
 * POST is sent, so a frame that beats the POST's answer is matched all the same.
 */
export function deliveryBook() {
  const sentAt = new Map<number, number>()
  const expected = new Map<number, number>()
  const got = new Map<number, number>()
  let samples: number[] = []
  let arrivals: number[] = []
  let delivered = 0
  let strays = 0
  let firstArrival = Number.POSITIVE_INFINITY
  let lastArrival = 0
  let buckets: number[] = []
  let origin = 0
  return {
    /** a phase starts: what came before is forgotten */
    reset(at: number) {
      sentAt.clear()
      expected.clear()
      got.clear()
      samples = []
      arrivals = []
      delivered = 0
      strays = 0
      firstArrival = Number.POSITIVE_INFINITY
      lastArrival = 0
      buckets = []
      origin = at
    },
    sent(n: number, at: number) {
      sentAt.set(n, at)
    },
    /** the POST was accepted (201): `receivers` deliveries are owed */
    accepted(n: number, receivers: number) {
      expected.set(n, receivers)
    },
    arrive(n: number, at: number) {
      const t0 = sentAt.get(n)
      if (t0 === undefined) {
        strays++
        return
      }
      samples.push(at - t0)
      arrivals.push(at - origin)
      got.set(n, (got.get(n) ?? 0) + 1)
      delivered++
      if (at < firstArrival) firstArrival = at
      lastArrival = at
      const second = Math.floor((at - origin) / 1000)
      buckets[second] = (buckets[second] ?? 0) + 1
    },
    get delivered() {
      return delivered
    },
    owed() {
      let n = 0
      for (const v of expected.values()) n += v
      return n
    },
    /** deliveries owed by accepted posts that never came, and any beyond what was owed */
    tally() {
      let lost = 0
      let duplicates = 0
      for (const [n, want] of expected) {
        const had = got.get(n) ?? 0
        if (had < want) lost += want - had
        else duplicates += had - want
      }
      return { lost, duplicates, strays }
    },
    samples: () => samples,
    span: () => ({ firstArrival, lastArrival }),
    buckets: () => [...buckets].map((b) => b ?? 0),
    /** the median latency of the frames that arrived in each second of the phase */
    p50BySecond() {
      const by: number[][] = []
      samples.forEach((v, i) => {
        const second = Math.floor(arrivals[i]! / 1000)
        by[second] ??= []
        by[second].push(v)
      })
      return [...by].map((b) => (b ? Math.round(percentile(b, 50)) : null))
    },
  }
}
export type Book = ReturnType<typeof deliveryBook>

export const MARK = Buffer.from('"content":"bench ')
/** The post number in a message frame's content, without parsing the frame (-1 for any other frame). */
export function markOf(data: Buffer): number {
  const i = data.indexOf(MARK)
  if (i < 0) return -1
  let n = 0
  for (let j = i + MARK.length; j < data.length; j++) {
    const c = data[j]!
    if (c < 48 || c > 57) break
    n = n * 10 + c - 48
  }
  return n
}

/** Counts the frames of a socket into the book (the client's own queue of wsConnect is taken off: it would grow). */
export function listen(ws: Socket, book: Book) {
  ws.removeAllListeners('message')
  ws.on('error', () => {})
  ws.on('message', (data: Buffer) => {
    const at = performance.now()
    const n = markOf(data)
    if (n >= 0) book.arrive(n, at)
  })
}

/** Resolves with the first frame of `type` on the socket (after the client's queue was taken off). */
export function frameOf(ws: Socket, type: string, timeoutMs = 15_000) {
  return new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} frame within ${timeoutMs} ms`)), timeoutMs)
    const onMessage = (data: Buffer) => {
      const f = JSON.parse(data.toString())
      if (f.type === 'error') {
        clearTimeout(timer)
        ws.off('message', onMessage)
        reject(new Error(`error frame: ${JSON.stringify(f.data)}`))
      }
      if (f.type !== type) return
      clearTimeout(timer)
      ws.off('message', onMessage)
      resolve(f)
    }
    ws.on('message', onMessage)
  })
}

/** Opens `count` sockets, `concurrency` upgrades at a time; `open(i)` opens the i-th. */
export async function openMany(count: number, concurrency: number, open: (i: number) => Promise<Socket>) {
  const out: Socket[] = new Array(count)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++
        out[i] = await open(i)
      }
    }),
  )
  return { sockets: out, seconds: (performance.now() - started) / 1000 }
}

export const bareSocket = async (base: string, opts: Parameters<typeof wsConnect>[2]) => {
  const ws = wsOpened(await wsConnect(base, '/api/v1/ws', { ...opts, greeting: false })).ws
  ws.removeAllListeners('message')
  ws.on('error', () => {})
  return ws
}

/**
 * Posts at a steady `rate` for `seconds` (open loop: the schedule does not wait for answers, at most MAX_IN_FLIGHT
 * at once); `post(n)` sends the n-th and says whether it was accepted.
 */
export async function paced(rate: number, seconds: number, first: number, post: (n: number) => Promise<boolean>) {
  const latencies: number[] = []
  /** POST latencies by the second of the phase they were sent in */
  const bySecond: number[][] = []
  let issued = 0
  let inFlight = 0
  let accepted = 0
  let acceptedInWindow = 0
  let refused = 0
  let cappedTicks = 0
  const pending = new Set<Promise<void>>()
  const started = performance.now()
  const deadline = started + seconds * 1000
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate)
    while (issued < due && inFlight < MAX_IN_FLIGHT) {
      const n = first + issued++
      inFlight++
      const t0 = performance.now()
      const p = post(n).then((ok) => {
        const t1 = performance.now()
        latencies.push(t1 - t0)
        const second = Math.floor((t0 - started) / 1000)
        bySecond[second] ??= []
        bySecond[second].push(t1 - t0)
        if (ok) accepted++
        else refused++
        if (ok && t1 <= deadline) acceptedInWindow++
        inFlight--
        pending.delete(p)
      })
      pending.add(p)
    }
    if (issued < due) cappedTicks++
    await new Promise((r) => setTimeout(r, 1))
  }
  await Promise.all(pending)
  // what the POST path answered while the load ran: below the offered rate, it fell behind (a growing backlog)
  const acceptedPerS = acceptedInWindow / seconds
  const p50s = [...bySecond].map((l) => (l ? percentile(l, 50) : Number.NaN))
  const firstP50 = p50s[0] ?? Number.NaN
  const lastP50 = p50s[Math.ceil(seconds) - 1] ?? Number.NaN
  return {
    offered_per_s: rate,
    issued,
    accepted,
    accepted_per_s: acceptedPerS,
    refused,
    /**
     * answered at the offered rate (within 5 %), never MAX_IN_FLIGHT unanswered, and no backlog growing: the posts
     * of the last second answered (median) within 100 ms or twice what the first second's took
     */
    kept_up:
      acceptedPerS >= 0.95 * rate && cappedTicks === 0 && refused === 0 && lastP50 <= Math.max(100, 2 * firstP50),
    post_p50_ms_by_second: p50s.map((v) => Math.round(v)),
    post_p50_ms: percentile(latencies, 50),
    post_p99_ms: percentile(latencies, 99),
  }
}

/** Until every owed delivery came, or none came for `quietMs` (at most a minute). */
export async function drain(book: Book, quietMs = 3000) {
  const deadline = performance.now() + 60_000
  let seen = book.delivered
  let since = performance.now()
  while (book.delivered < book.owed() && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50))
    if (book.delivered !== seen) {
      seen = book.delivered
      since = performance.now()
    } else if (performance.now() - since > quietMs) break
  }
}
