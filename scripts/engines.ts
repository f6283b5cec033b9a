// Prints `ENGINES_DOWN=...` (shell syntax) naming every real engine that does not answer on its URL.
import { connect } from 'node:net'

const urls = {
  postgres: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redis: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  nats: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
}
const defaults: Record<string, number> = { postgres: 5432, redis: 6379, nats: 4222 }

function reachable(name: string, url: string): Promise<boolean> {
  const u = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname, port: Number(u.port || defaults[name]), timeout: 2000 })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

const down: string[] = []
for (const [name, url] of Object.entries(urls)) if (!(await reachable(name, url))) down.push(name)
console.log(`ENGINES_DOWN='${down.join(' ')}'`)
