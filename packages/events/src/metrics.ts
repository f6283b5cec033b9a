import { Counter, type Registry } from 'prom-client'

/** The bus counters. Labels stay bounded: the first subject token, or a consumer (durable) name. */
export interface EventBusMetrics {
  published: Counter<'subject_root'>
  failed: Counter<'consumer'>
  deadLetters: Counter<'consumer'>
  /** messages a handler declared unappliable (PoisonMessageError): dead-lettered at once */
  poison: Counter<'consumer'>
}

function counter<L extends string>(registry: Registry, name: string, help: string, label: L): Counter<L> {
  // Several buses (or a bus and a relay) in one process may share a service registry.
  const existing = registry.getSingleMetric(name)
  if (existing) return existing as Counter<L>
  return new Counter({ name, help, labelNames: [label], registers: [registry] })
}

/** Registers (or reuses) the event-bus counters on the given registry; no global registry is touched. */
export function createEventBusMetrics(registry: Registry): EventBusMetrics {
  return {
    published: counter(registry, 'eventbus_published_total', 'Events published to the bus', 'subject_root'),
    failed: counter(registry, 'eventbus_failed_total', 'Event handler failures', 'consumer'),
    deadLetters: counter(registry, 'eventbus_dead_letters_total', 'Events moved to the dead-letter stream', 'consumer'),
    poison: counter(
      registry,
      'eventbus_poison_total',
      'Events a handler could never apply, dead-lettered on their first failure',
      'consumer',
    ),
  }
}

export function subjectRoot(subject: string): string {
  const dot = subject.indexOf('.')
  return dot === -1 ? subject : subject.slice(0, dot)
}

/** Alias of createEventBusMetrics. */
export const createEventMetrics = createEventBusMetrics
