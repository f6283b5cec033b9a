import { createServer, type Socket, connect as tcpConnect } from 'node:net'

export interface TcpProxy {
  /** the proxy's port on 127.0.0.1 */
  port: number
  /** `url` with its host and port replaced by the proxy's (credentials, path and query kept) */
  urlFor(url: string): string
  /** stops forwarding in both directions, connections left open: a peer that accepts and never answers */
  freeze(): void
  /** forwards again, what was held first */
  thaw(): void
  /** closes every connection and stops listening: the port refuses from now on */
  close(): Promise<void>
}

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'redis:': 6379, 'nats:': 4222 }

/**
 * A TCP proxy owned by one test, in front of a real engine (`target`: its URL): the engine's failures a test needs —
 * one that stops answering, one that goes away — without pausing or stopping a server other tests share.
 */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const t = new URL(target)
  const host = t.hostname
  const port = Number(t.port || DEFAULT_PORTS[t.protocol])
  const sockets = new Set<Socket>()
  const held: Array<() => void> = []
  let frozen = false

  const pipe = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (frozen) held.push(() => to.write(chunk))
      else to.write(chunk)
    })
    from.on('close', () => to.destroy())
    from.on('error', () => to.destroy())
  }
  const server = createServer((client) => {
    const upstream = tcpConnect({ host, port })
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    pipe(client, upstream)
    pipe(upstream, client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: '127.0.0.1', port: 0 }, resolve)
  })
  const own = (server.address() as { port: number }).port
  return {
    port: own,
    urlFor(url) {
      const u = new URL(url)
      u.hostname = '127.0.0.1'
      u.port = String(own)
      return u.toString()
    },
    freeze() {
      frozen = true
    },
    thaw() {
      frozen = false
      for (const send of held.splice(0)) send()
    },
    async close() {
      held.length = 0
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const s of sockets) s.destroy()
      await closed
    },
  }
}
