import type { Dialect } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { AGGREGATES } from './aggregates.repository.ts'
import { buildAggregates } from './aggregates-build.ts'
import type { StatisticsDatabase } from './database.ts'

type Rows = Map<string, Record<string, number>>

async function readAggregates(db: Kysely<any>): Promise<Map<string, Rows>> {
  const out = new Map<string, Rows>()
  for (const [table, spec] of Object.entries(AGGREGATES)) {
    const rows: Rows = new Map()
    for (const r of await db.selectFrom(table).selectAll().execute()) {
      const counters = Object.fromEntries(spec.counters.map((c) => [c, Number(r[c])]))
      // a row whose counters all went back to 0 is no contribution
      if (Object.values(counters).every((v) => v === 0)) continue
      rows.set(spec.keys.map((k) => r[k]).join('|'), counters)
    }
    out.set(table, rows)
  }
  return out
}

const ROLLBACK = Symbol('rollback')

/**
 * How the aggregates the projections kept differ from the ones the raw rows give (the set-based build,
 * made in a transaction that is rolled back): one line per differing row, none when they are equal. For tests and
 * the benchmark; on PostgreSQL it locks the aggregates while it runs.
 */
export async function aggregatesDrift(db: Kysely<StatisticsDatabase>, dialect: Dialect): Promise<string[]> {
  const kept = await readAggregates(db)
  let built = new Map<string, Rows>()
  try {
    await db.transaction().execute(async (trx) => {
      await buildAggregates(trx, dialect)
      built = await readAggregates(trx)
      throw ROLLBACK
    })
  } catch (err) {
    if (err !== ROLLBACK) throw err
  }
  const drift: string[] = []
  const near = (a = 0, b = 0) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b))
  for (const [table, rows] of built) {
    const mine = kept.get(table) ?? new Map()
    for (const key of new Set([...rows.keys(), ...mine.keys()])) {
      const a = mine.get(key) ?? {}
      const b = rows.get(key) ?? {}
      const counters = new Set([...Object.keys(a), ...Object.keys(b)])
      if (![...counters].every((c) => near(a[c], b[c]))) {
        drift.push(`${table} ${key}: kept ${JSON.stringify(a)}, from the rows ${JSON.stringify(b)}`)
      }
    }
  }
  return drift
}
