import type { Scope } from '@switchboard/platform'
import type { Share } from './aggregates.repository.ts'
import type { DailyCounter } from './database.ts'

/**
 * The counters a batch of events moves (aggregates, DailyStats, message counts, the projection's position), added up
 * in memory while the batch's handlers run and written once each, in one order, before the batch's transaction
 * commits (consumers/batching.ts): the same sums in a few statements instead of a few per event. Nothing a handler
 * reads is among them (handlers read the raw rows only). Outside a batch every write goes to the database at once.
 */
export interface Pending {
  shares: Map<string, Share>
  daily: Map<string, { counters: Partial<Record<DailyCounter, number>>; now: string }>
  messages: Map<string, { scope: Scope; bucket: string; count: number }>
  position?: { projection: string; seq: number; occurredAt: string; now: string }
}

const pending = new WeakMap<object, Pending>()

/** From now on, the counters written through `db` (a transaction) wait in the returned Pending. */
export function deferCounters(db: object): Pending {
  const p: Pending = { shares: new Map(), daily: new Map(), messages: new Map() }
  pending.set(db, p)
  return p
}

export const pendingOf = (db: object): Pending | undefined => pending.get(db)

/** The Pending of `db`, no longer deferring: what is left to write. */
export function takePending(db: object): Pending | undefined {
  const p = pending.get(db)
  pending.delete(db)
  return p
}
