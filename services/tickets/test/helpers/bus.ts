import type { Envelope } from '@switchboard/contracts'
import { createJetStreamBus, createMemoryBus, type EventBus } from '@switchboard/events'
import { type Storage, silentLogger } from '@switchboard/testing'

/** The bus a storage's config names (JetStream on its prefix, or a fresh memory bus), made by the test. */
export async function busFor(store: Storage): Promise<EventBus> {
  return store.bus.driver === 'nats'
    ? createJetStreamBus({ url: store.bus.url, prefix: store.bus.prefix, logger: silentLogger() })
    : createMemoryBus({ logger: silentLogger() })
}

/** Holds every publish until `open()`: what is committed but not yet relayed can be looked at. */
export function gated(bus: EventBus): { bus: EventBus; open(): void } {
  let open = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const wrapped: EventBus = Object.create(bus)
  wrapped.publish = async (...args) => {
    await gate
    return bus.publish(...args)
  }
  return { bus: wrapped, open }
}

/** Everything a stream holds now, in order. */
export async function streamEvents(
  bus: EventBus,
  stream: string,
): Promise<Array<{ subject: string; envelope: Envelope }>> {
  const out: Array<{ subject: string; envelope: Envelope }> = []
  await bus.replay(stream, {}, async (d) => {
    out.push({ subject: d.subject, envelope: d.envelope })
  })
  return out
}
