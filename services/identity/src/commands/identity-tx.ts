import type { Scope, Tx } from '@switchboard/platform'
import type { IdentityDatabase } from '../db/database.ts'

/** identity's unit of work: what `svc.transaction` hands a command. */
export type IdentityTx = Tx<IdentityDatabase>

/**
 * The same unit of work with its events scoped to `scope` unless an emit names another: for the auth flows,
 * whose scope is only known inside the transaction (the session a refresh token names, the binding a
 * registration made). The actor stays the caller's.
 */
export function inEventScope(tx: IdentityTx, scope: Scope): IdentityTx {
  return {
    ...tx,
    caller: { ...tx.caller, scope },
    emit: (def, data, at) => tx.emit(def, data, at ?? scope),
  }
}
