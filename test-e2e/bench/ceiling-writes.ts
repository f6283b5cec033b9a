// What a path writes, measured (issue 24 §4): `tableWrites` reads PostgreSQL's own row counters
// (pg_stat_user_tables) of a namespace's schemas, so the writes a path causes are measured, not guessed: every
// unit's, the consumers' and the relay's; `writesPerMessage` divides two readings by the messages written.
import { type Kysely, sql } from 'kysely'

/** rows inserted, updated and deleted so far, per `<unit schema>.<table>` of a namespace */
export type TableWrites = Map<string, { ins: number; upd: number; del: number }>

/** PostgreSQL 15 flushes a backend's table counters at most once a second while busy and after 10 s when idle. */
export const STATS_FLUSH_MS = 11_000

export async function tableWrites(db: Kysely<any>, namespace: string): Promise<TableWrites> {
  const { rows } = await sql<{ schemaname: string; relname: string; ins: string; upd: string; del: string }>`
    select schemaname, relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del
    from pg_stat_user_tables where schemaname like ${`${namespace}\\_%`}`.execute(db)
  const out: TableWrites = new Map()
  for (const r of rows) {
    out.set(`${r.schemaname.slice(namespace.length + 1)}.${r.relname}`, {
      ins: Number(r.ins),
      upd: Number(r.upd),
      del: Number(r.del),
    })
  }
  return out
}

/** rows written per message (per row inserted into `per`) between two readings; tables with no writes left out */
export function writesPerMessage(
  before: TableWrites,
  after: TableWrites,
  per: string | number = 'conversations.messages',
) {
  const messages = typeof per === 'number' ? per : (after.get(per)?.ins ?? 0) - (before.get(per)?.ins ?? 0)
  const profile: Record<string, { ins: number; upd: number; del: number }> = {}
  for (const [table, a] of after) {
    const b = before.get(table) ?? { ins: 0, upd: 0, del: 0 }
    const d = { ins: a.ins - b.ins, upd: a.upd - b.upd, del: a.del - b.del }
    if (d.ins + d.upd + d.del === 0) continue
    profile[table] = { ins: d.ins / messages, upd: d.upd / messages, del: d.del / messages }
  }
  return { messages, profile }
}

export const profileText = (profile: Record<string, { ins: number; upd: number; del: number }>) =>
  Object.entries(profile)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([t, w]) => {
      const parts = [
        w.ins && `+${w.ins.toFixed(2)}`,
        w.upd && `~${w.upd.toFixed(2)}`,
        w.del && `-${w.del.toFixed(2)}`,
      ].filter(Boolean)
      return `${t} ${parts.join(' ')}`
    })
    .join(', ')
