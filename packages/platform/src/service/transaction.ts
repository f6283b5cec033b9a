import type { Static, TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import type { EventCatalog, EventDef } from '@switchboard/contracts'
import { appendOutbox, newEnvelope } from '@switchboard/events'
import { type Kysely, sql, type Transaction } from 'kysely'
import { dialectOf } from '../db/columns.ts'
import type { Dialect } from '../db/database.ts'
import type { Caller, Scope } from '../scope.ts'

/** A query that can lock the rows it reads (Kysely's select builder). */
export interface Lockable<Q> {
  forUpdate(): Q
}
/** A query that can lock the rows it reads and skip those another transaction holds. */
export interface SkipLockable<Q> {
  forUpdate(): { skipLocked(): Q }
}

/**
 * A unit of work: the transaction repositories write through, and `emit`, which queues an event in that same
 * transaction (published by the outbox relay only if it commits). Commands get one from `svc.transaction`.
 *
 * The locks a transaction takes are its own operations, because they depend on the engine: PostgreSQL runs
 * transactions side by side and needs row and advisory locks to serialise them; SQLite has one writer at a time,
 * which already serialises every transaction that writes, so each lock is a no-op there (and `FOR UPDATE` is not
 * even SQLite syntax). A locking read therefore takes a `Tx`, never a `forUpdate` flag worked out by its caller.
 */
export interface Tx<DB> {
  readonly db: Transaction<DB>
  readonly caller: Caller
  readonly dialect: Dialect
  /** `query` locking the rows it reads until this transaction ends (`FOR UPDATE`, PostgreSQL); as is on SQLite. */
  forUpdate<Q extends Lockable<Q>>(query: Q): Q
  /**
   * `query` locking the rows it reads and skipping those another transaction holds (`FOR UPDATE SKIP LOCKED`,
   * PostgreSQL), so concurrent workers each claim different rows; as is on SQLite, whose writers take turns.
   */
  skipLocked<Q extends SkipLockable<Q>>(query: Q): Q
  /**
   * Waits for, then holds until this transaction ends, the lock named `key` (`pg_advisory_xact_lock(hashtext(key))`,
   * PostgreSQL): for check-then-insert rules no row lock can cover, such as "the first one". A no-op on SQLite.
   */
  advisoryLock(key: string): Promise<void>
  /**
   * Queues `def`'s event with `data`, attributed to the caller and scoped to `scope` (default the caller's
   * scope: pass the record's own when an unscoped admin or service touched it). The payload is checked
   * against the contract first.
   */
  emit<D extends EventDef>(def: D, data: Static<D['data']>, scope?: Scope): Promise<void>
}

/** An event that does not match its contract, or that the service did not declare: a programming error. */
export class EventContractError extends Error {
  override name = 'EventContractError'
  readonly statusCode = 500
}

/** Checks payloads against the service's declared event contracts; schemas are compiled once. */
export function createEventChecker(catalogs: readonly EventCatalog[]) {
  const declared = new Map<string, EventDef>()
  for (const catalog of catalogs) for (const def of Object.values(catalog)) declared.set(def.type, def)
  const compiled = new Map<string, TypeCheck<TSchema>>()
  return function check(def: EventDef, data: unknown): void {
    if (declared.get(def.type) !== def) {
      throw new EventContractError(`event ${def.type} is not among this service's declared events`)
    }
    let checker = compiled.get(def.type)
    if (!checker) {
      checker = TypeCompiler.Compile(def.data)
      compiled.set(def.type, checker)
    }
    if (!checker.Check(data)) {
      const first = checker.Errors(data).First()
      throw new EventContractError(
        `event ${def.type} does not match its contract: ${first?.path || '/'} ${first?.message ?? 'invalid'}`,
      )
    }
  }
}

export interface TransactionDeps {
  check: (def: EventDef, data: unknown) => void
  /** publish soon: called once after a commit that queued events */
  kick: () => void
}

/** The envelope of an event `caller` emits, in `scope` (default: the caller's). */
export function eventEnvelope(caller: Caller, def: EventDef, data: unknown, scope?: Scope) {
  const at = scope ?? caller.scope
  return newEnvelope({
    type: def.type,
    version: def.version,
    tenant_id: at.tenant_id,
    workspace_id: at.workspace_id,
    actor: caller.actor,
    request_id: caller.request_id,
    data,
  })
}

/** A unit of work around a transaction someone else opened (the inbox's, for a consumer). */
export function txFor<DB>(
  trx: Transaction<DB>,
  caller: Caller,
  check: TransactionDeps['check'],
  onEmit: () => void = () => {},
): Tx<DB> {
  const dialect = dialectOf(trx)
  const postgres = dialect === 'postgres'
  return {
    db: trx,
    caller,
    dialect,
    forUpdate: (query) => (postgres ? query.forUpdate() : query),
    skipLocked: (query) => (postgres ? query.forUpdate().skipLocked() : query),
    async advisoryLock(key) {
      if (postgres) await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
    },
    async emit(def, data, scope) {
      check(def, data)
      await appendOutbox(trx as unknown as Kysely<unknown>, def.type, eventEnvelope(caller, def, data, scope))
      onEmit()
    },
  }
}

/** Runs `work` in one transaction with an outbox-backed `emit`; kicks the relay after a commit that emitted. */
export async function runTransaction<DB, T>(
  db: Kysely<DB>,
  deps: TransactionDeps,
  caller: Caller,
  work: (tx: Tx<DB>) => Promise<T>,
): Promise<T> {
  let emitted = 0
  const result = await db.transaction().execute((trx) => work(txFor(trx, caller, deps.check, () => emitted++)))
  if (emitted > 0) deps.kick()
  return result
}
