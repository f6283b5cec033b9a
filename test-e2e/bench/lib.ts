import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import autocannon from 'autocannon'

export interface LoadResult {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  total: number
}

/** One autocannon run; throughput is the mean requests/s, latency in ms. */
export async function load(
  name: string,
  url: string,
  opts: {
    connections?: number
    durationS?: number
    headers?: Record<string, string>
    method?: 'GET' | 'POST'
    body?: string
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: opts.connections ?? 50,
    duration: opts.durationS ?? 8,
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
  })
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  }
}

/** A bare Fastify hello-world in its own process: the ceiling this machine allows for one Node HTTP server. */
export async function startHelloWorld(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const code = `
    import Fastify from 'fastify'
    const app = Fastify()
    app.get('/', async () => ({ hello: 'world' }))
    await app.listen({ port: ${port}, host: '127.0.0.1' })
    console.log('listening')
  `
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: new URL('../../gateway/', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await waitForLine(child, 'listening')
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}

async function waitForLine(child: ChildProcess, text: string) {
  let buffer = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      if (buffer.includes(text)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`process exited with ${code} before "${text}"`)))
  })
}

/** Reads one counter (summed over its label sets) from a Prometheus text exposition. */
export async function counter(
  metricsUrl: string,
  name: string,
  keep: (labels: string) => boolean = () => true,
): Promise<number> {
  const text = await (await fetch(metricsUrl)).text()
  let sum = 0
  for (const line of text.split('\n')) {
    if (!(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue
    if (!keep(line.slice(name.length, line.lastIndexOf(' ')))) continue
    sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return sum
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

export interface OpenLoopResult {
  rate: number
  seconds: number
  sent: number
  ok: number
  failed: number
  /** sends the schedule skipped because `maxInFlight` were still unanswered (the path fell behind) */
  skipped: number
  answered_per_s: number
  p50: number
  p99: number
}

/**
 * Open loop at a fixed rate: the i-th request goes at `i / rate` s whatever the earlier ones are doing, so latency
 * is the path's at that load, not a queue the load generator builds (closed loop at saturation). `send` resolves to
 * whether the answer was the expected one; latency is from the send to the answer.
 */
export async function openLoop(
  rate: number,
  seconds: number,
  send: (i: number) => Promise<boolean>,
  maxInFlight = 256,
): Promise<OpenLoopResult> {
  const latencies: number[] = []
  let ok = 0
  let failed = 0
  let skipped = 0
  let inFlight = 0
  const pending = new Set<Promise<void>>()
  const total = Math.round(rate * seconds)
  const t0 = performance.now()
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now()
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait))
    if (inFlight >= maxInFlight) {
      skipped++
      continue
    }
    inFlight++
    const started = performance.now()
    const p: Promise<void> = send(i)
      .then(
        (good) => {
          latencies.push(performance.now() - started)
          if (good) ok++
          else failed++
        },
        () => {
          failed++
        },
      )
      .finally(() => {
        inFlight--
        pending.delete(p)
      })
    pending.add(p)
  }
  await Promise.all(pending)
  return {
    rate,
    seconds,
    sent: total - skipped,
    ok,
    failed,
    skipped,
    answered_per_s: ok / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  }
}

/**
 * A cheap sender for `openLoop`: node:http on kept-alive sockets (at most `maxSockets`), the body read and dropped
 * (fetch costs several times more CPU per request in this process, which shares the machine with the fleet).
 * Resolves to the status and the body as text.
 */
export function httpSender(maxSockets = 256) {
  const agent = new http.Agent({ keepAlive: true, maxSockets })
  return {
    send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
      return new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
          res.on('error', reject)
        })
        req.on('error', reject)
        req.end(init.body)
      })
    },
    close: () => agent.destroy(),
  }
}
