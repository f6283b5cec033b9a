import { createServer } from 'node:net'

/** A port the OS says is free right now; a child told to use it binds it a moment later. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen({ host, port: 0 }, () => {
      const addr = server.address()
      server.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))))
    })
  })
}

/** `count` ports: consecutive from `first`, or free ones when `first` is 0. */
export async function portRange(first: number, count: number): Promise<number[]> {
  if (first !== 0) return Array.from({ length: count }, (_, i) => first + i)
  const out: number[] = []
  while (out.length < count) {
    const p = await freePort()
    if (!out.includes(p)) out.push(p)
  }
  return out
}

/** Polls `url` until it answers 200, the deadline passes, or `abort` says the target is gone. */
export async function waitForOk(url: string, timeoutMs: number, abort?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    const reason = abort?.()
    if (reason) throw new Error(`${url}: ${reason}`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) })
      if (res.status === 200) return
      last = `HTTP ${res.status} ${(await res.text()).slice(0, 200)}`
    } catch (err) {
      last = (err as Error).message
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`)
}
