import { execFile } from 'node:child_process'
import { connect } from 'node:net'

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'redis:': 6379, 'nats:': 4222 }

/** Whether something accepts a TCP connection at the URL's host and port (the engine's default port if none). */
export function tcpAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url)
  const port = Number(u.port || DEFAULT_PORTS[u.protocol])
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname, port, timeout: timeoutMs })
    const done = (answered: boolean) => {
      socket.destroy()
      resolve(answered)
    }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    socket.once('timeout', () => done(false))
  })
}

/** Whether a Docker engine answers `docker info` (no CLI, no daemon or no permission all mean no). */
export function dockerAnswers(timeoutMs = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('docker', ['info'], { timeout: timeoutMs }, (err) => resolve(!err))
  })
}
