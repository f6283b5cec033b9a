// Killing one replica of the chaos bench's fleet (or its NATS server) -9 and starting it again.
import { once } from 'node:events'
import type { startFleet } from '@switchboard/cli'
import type { RequestBook } from './chaos-load.ts'
import type { OwnNats } from './chaos-nats.ts'

/** Kills one replica (or NATS) -9 and starts it again `downS` later; the times are the book's. */
export async function killAndRestart(
  fleet: Awaited<ReturnType<typeof startFleet>>,
  nats: OwnNats | undefined,
  target: string,
  i: number,
  downS: number,
  book: RequestBook,
) {
  if (target === 'nats') {
    if (!nats) throw new Error('no NATS server of the bench to kill (nats-server not found)')
    const killed_at = book.now()
    await nats.kill()
    await sleep(downS * 1000)
    await nats.start()
    return { target: 'nats', killed_at, ready_at: book.now() }
  }
  // replicas 2, 1, 2, … in turn
  const name = `${target}.${2 - (i % 2)}`
  const child = fleet.children.find((c) => c.name === name)
  if (!child) throw new Error(`no replica ${name} in the fleet`)
  const killed_at = book.now()
  const exited = once(child.process, 'exit')
  child.process.kill('SIGKILL')
  await exited
  await sleep(downS * 1000)
  await fleet.restart(name)
  return { target: name, killed_at, ready_at: book.now() }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
