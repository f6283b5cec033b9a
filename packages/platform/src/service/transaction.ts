import type { Static, TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import type { EventCatalog, EventDef } from '@switchboard/contracts'
import { appendOutbox, newEnvelope } from '@switchboard/events'
import type { Kysely, Transaction } from 'kysely'
import type { Caller, Scope } from '../scope.ts'

/**
 * A unit of work: the transaction repositories write through, and `emit`, which queues an event in that same
 * transaction (published by the outbox relay only if it commits). Commands get one from `svc.transaction`.
 */
export interface Tx<DB> {
  readonly db: Transaction<DB>
  readonly caller: Caller
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
  return {
    db: trx,
    caller,
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
