import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import { createJetStreamBus, createMemoryBus, type EventBus } from '@switchboard/events'
import { type Storage, silentLogger } from '@switchboard/testing'

/** The storage's bus, recording every audit envelope it is handed (pass as `conversationsApp`'s `bus`). */
export function recordingBus(audits: Envelope<AuditRecordData>[]) {
  return async (store: Storage): Promise<EventBus> => {
    const bus =
      store.bus.driver === 'nats'
        ? await createJetStreamBus({ url: store.bus.url, prefix: store.bus.prefix, logger: silentLogger() })
        : createMemoryBus({ logger: silentLogger() })
    const wrapped: EventBus = Object.create(bus)
    wrapped.publish = async (subject, envelope, ...rest) => {
      if (subject.startsWith('audit.')) audits.push(envelope as Envelope<AuditRecordData>)
      return bus.publish(subject, envelope, ...rest)
    }
    return wrapped
  }
}
