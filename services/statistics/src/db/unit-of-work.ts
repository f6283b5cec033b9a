import type { ConsumerTx, Scope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { type Share, writeShares } from './aggregates.repository.ts'
import { writeMessageCounts } from './conversations.repository.ts'
import { writeDailyCounters } from './daily-stats.repository.ts'
import type { DailyCounter, StatisticsDatabase, TicketsTable } from './database.ts'
import { advancePosition } from './positions.repository.ts'
import { writeBatchTickets } from './tickets.repository.ts'

/**
 * What a batch of a projection's events moves (aggregates, DailyStats, message counts, the projection's position),
 * added up in memory by the batch's handlers and written once each, in one order, by `flushWork` before the batch's
 * transaction commits (the platform's consumer `batch` option): the same sums in a few statements instead of a few
 * per event. Nothing a handler reads is among them (handlers read the raw rows only), except the tickets, which are
 * read once for the whole batch and then read and changed in memory.
 */
export interface UnitOfWork {
  shares: Map<string, Share>
  daily: Map<string, { counters: Partial<Record<DailyCounter, number>>; now: string }>
  messages: Map<string, { scope: Scope; bucket: string; count: number }>
  position?: { projection: string; seq: number; occurredAt: string; now: string }
  /**
   * The tickets the batch's events name, read once (locked) before its handlers run, changed here by them and
   * written once at the flush (tickets.repository.ts); null: not projected yet. A ticket not in the map is read and
   * written at once.
   */
  tickets?: BatchTickets
}

/** A batch's tickets: each named one's row (null: not projected yet), and which of them the batch made or changed. */
export interface BatchTickets {
  rows: Map<string, TicketsTable | null>
  changed: Set<string>
}

/** What a projection's handler gets: the batch's transaction and its unit of work. */
export type StatsTx = ConsumerTx<StatisticsDatabase, UnitOfWork>

export const newUnitOfWork = (): UnitOfWork => ({ shares: new Map(), daily: new Map(), messages: new Map() })

/** The batch's tickets and counters, written once each, in one order. */
export async function flushWork(db: Kysely<StatisticsDatabase>, work: UnitOfWork): Promise<void> {
  const byId = <V>(m: Map<string, V>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  await writeBatchTickets(db, work.tickets)
  const shares = [...work.shares.values()]
    .map((s) => ({ ...s, add: Object.fromEntries(Object.entries(s.add).filter(([, by]) => by !== 0)) }))
    .filter((s) => Object.keys(s.add).length > 0)
  await writeShares(db, shares)
  for (const [date, day] of byId(work.daily)) await writeDailyCounters(db, date, day.counters, day.now)
  await writeMessageCounts(
    db,
    byId(work.messages).map(([, m]) => m),
  )
  if (work.position) {
    const { projection, seq, occurredAt, now } = work.position
    await advancePosition(db, projection, seq, occurredAt, now)
  }
}
