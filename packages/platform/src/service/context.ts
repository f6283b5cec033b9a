import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from '@sinclair/typebox'
import type { EventDef } from '@switchboard/contracts'
import type { EventBus, OutboxValues } from '@switchboard/events'

export type { OutboxValues }

import type { Kysely } from 'kysely'
import type { Cache } from '../cache.ts'
import type { ServiceBaseConfig } from '../config.ts'
import type { Dialect } from '../db/database.ts'
import type { ServiceMetrics } from '../http/metrics.ts'
import type { Logger } from '../logger.ts'
import type { Caller, Scope } from '../scope.ts'
import type { Tx } from './transaction.ts'
import type { Workers } from './workers.ts'

/**
 * What a service's routes, commands, consumers and workers are handed: its own typed database and the
 * infrastructure around it. Made once per app by the descriptor's `build`; nothing of it is module state.
 * A service adds its own parts (keys, clients) through the descriptor's `context`.
 */
export interface ServiceContext<C extends ServiceBaseConfig = ServiceBaseConfig, DB = unknown> {
  readonly name: string
  readonly config: C
  readonly log: Logger
  readonly metrics: ServiceMetrics
  readonly db: Kysely<DB>
  readonly dialect: Dialect
  readonly cache: Cache
  readonly bus: EventBus
  /**
   * One unit of work: `work` runs in a transaction and emits events into the outbox in it; the relay is kicked
   * after the commit. Everything a command changes, and every event it emits, commits together or not at all.
   */
  transaction<T>(caller: Caller, work: (tx: Tx<DB>) => Promise<T>): Promise<T>
  /**
   * An event that records a fact without any state change of this service to commit with it (an AI answer given):
   * checked against its contract like `tx.emit`, written to the outbox with the other events of this turn of the
   * event loop in one statement. Resolves once it is in the outbox (rejects if it could not be written).
   */
  emitSoon<D extends EventDef>(caller: Caller, def: D, data: Static<D['data']>, scope?: Scope): Promise<void>
  /**
   * An event published straight to the bus, not through the outbox: for what changes no state and is worth nothing
   * late (the hub's signals: typing, WebRTC, the pieces of an AI answer), so there is no transaction to commit it with
   * and no row to keep. Checked against its contract like `tx.emit` (an undeclared event or a payload off its schema
   * rejects with `EventContractError`); rejects too when the bus does not take it — nothing retries it.
   */
  publish<D extends EventDef>(caller: Caller, def: D, data: Static<D['data']>, scope?: Scope): Promise<void>
  /**
   * An event for a statement that writes its outbox row itself, beside its state change, with no transaction around
   * it (one round trip where BEGIN, the change, the row and COMMIT took four): checked against its contract like
   * `tx.emit`; `row` is what to insert into `outbox` (the statement may complete the envelope from the rows it
   * changes); `written()` once the statement committed with the row in it, so the relay publishes at once.
   */
  outboxRow<D extends EventDef>(
    caller: Caller,
    def: D,
    data: Static<D['data']>,
    scope?: Scope,
  ): { row: OutboxValues; written(): void }
  /** the descriptor's workers, e.g. `svc.workers.runOnce('audit-retention', now)` */
  readonly workers: Workers
}

/** The Fastify instance a route module registers on (TypeBox type provider). */
export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0]

/**
 * A route module: HTTP only (schemas, status codes, reply shapes), calling commands and repositories with
 * `svc`. `export const ticketRoutes: RouteModule<TicketsService> = async (app, svc) => { app.get(…) }`.
 */
export type RouteModule<S> = (app: RouteApp, svc: S) => Promise<void> | void
