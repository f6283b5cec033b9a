import type { Static, TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import type { EventDef } from '@switchboard/contracts'
import { type Delivery, PoisonMessageError } from '@switchboard/events'

/** A delivery whose payload was checked against its contract: `data` is the envelope's data, typed. */
export type ConsumedEvent<T> = Delivery<T> & { readonly data: T }

/**
 * One contract's handler in a consumer (`on(TicketEvents.created, (event, tx, svc) => …)`): what follows the event
 * depends on the consumer's idempotency (an inbox consumer's handlers get its unit of work and the service, a
 * `handler` consumer's the service).
 */
export interface EventHandler<A extends unknown[]> {
  readonly def: EventDef
  handle(event: ConsumedEvent<any>, ...args: A): Promise<void>
}

/** The handler of `def`'s events, given each one's payload checked against `def.data` and typed by it. */
export function on<D extends EventDef, A extends unknown[]>(
  def: D,
  handle: (event: ConsumedEvent<Static<D['data']>>, ...args: A) => Promise<void> | void,
): EventHandler<A> {
  return { def, handle: async (event, ...args) => handle(event, ...args) }
}

/** A consumer's handlers by event type, each with its contract's compiled check. */
export interface HandlerTable<A extends unknown[]> {
  /**
   * The handler of `delivery`'s type with the delivery as a checked event, or undefined when the consumer has no
   * handler for it (acknowledged, nothing done). A payload that does not match its contract is thrown as a
   * PoisonMessageError: no retry can apply it, so it is dead-lettered at once where an operator sees it.
   */
  route(delivery: Delivery): { event: ConsumedEvent<unknown>; handler: EventHandler<A> } | undefined
}

export function handlerTable<A extends unknown[]>(durable: string, handlers: readonly EventHandler<A>[]) {
  const byType = new Map<string, { handler: EventHandler<A>; check: TypeCheck<TSchema> }>()
  for (const handler of handlers) {
    if (byType.has(handler.def.type)) throw new Error(`${durable}: two handlers of ${handler.def.type}`)
    byType.set(handler.def.type, { handler, check: TypeCompiler.Compile(handler.def.data) })
  }
  return {
    route(delivery: Delivery) {
      const entry = byType.get(delivery.envelope.type)
      if (!entry) return undefined
      const data = delivery.envelope.data
      if (!entry.check.Check(data)) {
        const first = entry.check.Errors(data).First()
        const { type, id } = delivery.envelope
        throw new PoisonMessageError(
          `${type} ${id} does not match its contract: ${first?.path || '/'} ${first?.message ?? 'invalid'}`,
        )
      }
      return { event: { ...delivery, data }, handler: entry.handler }
    },
  } satisfies HandlerTable<A>
}
