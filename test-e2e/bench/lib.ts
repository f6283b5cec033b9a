import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
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
