// The chaos bench's own nats-server: killing it takes down no one else's tests (test-e2e/bench/README.md "chaos").
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@switchboard/cli'
import { until } from '../harness/http.ts'

export interface OwnNats {
  url: string
  kill(): Promise<void>
  start(): Promise<void>
  stop(): Promise<void>
}

/**
 * A nats-server of the bench's own (JetStream, its store in a temporary directory), so that killing it takes down
 * no one else's tests; undefined when `nats-server` is not installed.
 */
export async function ownNats(): Promise<OwnNats | undefined> {
  let bin: string
  try {
    bin = execFileSync('which', ['nats-server'], { encoding: 'utf8' }).trim()
  } catch {
    return undefined
  }
  const port = await freePort()
  const store = mkdtempSync(join(tmpdir(), 'chaos-nats-'))
  let proc: ChildProcess | undefined
  const start = async () => {
    proc = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' })
    await until(`nats-server on ${port}`, () => listens(port))
  }
  await start()
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    async kill() {
      const exited = once(proc!, 'exit')
      proc!.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        const exited = once(proc, 'exit')
        proc.kill('SIGTERM')
        await exited
      }
      rmSync(store, { recursive: true, force: true })
    },
  }
}

function listens(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(undefined))
  })
}
