import type { Scope } from '@switchboard/platform'
import type { Share } from './aggregates.repository.ts'
import type { DailyCounter, TicketsTable } from './database.ts'

/**
 * The counters a batch of events moves (aggregates, DailyStats, message counts, the projection's position), added up
 * in memory while the batch's handlers run and written once each, in one order, before the batch's transaction
 * commits (consumers/batching.ts): the same sums in a few statements instead of a few per event. Nothing a handler
 * reads is among them (handlers read the raw rows only), except the tickets, which are read once for the whole batch
 * and then read and changed in memory. Outside a batch every write goes to the database at once.
 */
export interface Pending {
  shares: Map<string, Share>
  daily: Map<string, { counters: Partial<Record<DailyCounter, number>>; now: string }>
  messages: Map<string, { scope: Scope; bucket: string; count: number }>
  position?: { projection: string; seq: number; occurredAt: string; now: string }
  /**
   * The tickets the batch's events name, read once (locked) before its handlers run, changed here by them and
   * written once at the flush (tickets.repository.ts); null: not projected yet. A ticket not in the map is read and
   * written at once, as outside a batch.
   */
  tickets?: BatchTickets
}

/** A batch's tickets: each named one's row (null: not projected yet), and which of them the batch made or changed. */
export interface BatchTickets {
  rows: Map<string, TicketsTable | null>
  changed: Set<string>
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
