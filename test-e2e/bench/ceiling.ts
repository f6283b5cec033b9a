// The ceiling of a write path: what PostgreSQL alone does with the same rows (issue 24 §4). `tableWrites`
// (ceiling-writes.ts) reads PostgreSQL's own row counters (pg_stat_user_tables) of a namespace's schemas, so the
// writes a path causes are measured, not guessed: every unit's, the consumers' and the relay's. `replayCeiling` then
// writes those rows per message, straight to PostgreSQL, into copies of the same tables (same columns, indexes and
// constraints) in a schema of its own: by pgbench (ceiling-pgbench.ts) or, without it, by a client loop here.
import { createDatabase, type Logger } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import { pgbenchPath, runPgbench } from './ceiling-pgbench.ts'

export { profileText, STATS_FLUSH_MS, type TableWrites, tableWrites, writesPerMessage } from './ceiling-writes.ts'

export interface Copy {
  /** `"schema"."table"` of the copy */
  name: string
  /** a real row of the source table (JSON): what the copy's inserts write, unique columns made new */
  template: Record<string, unknown> | undefined
  /** one column of each unique index, made new for every insert: [name, type] */
  fresh: Array<[string, string]>
  /** a column of the template row the copy's updates set to itself, and that row's key to find it */
  touch: string | undefined
  key: Array<[string, unknown]>
}

/**
 * Messages per second PostgreSQL takes for the writes `profile` says one message causes, `clients` at once for
 * `seconds`, into copies of the namespace's tables. Per message two transactions, as the path has them at the
 * least: the conversation's own — raise the session's counter (`UPDATE … RETURNING`, which locks its row) and insert
 * the message with that `seq` (one statement under pgbench, as conversations does it on PostgreSQL; two in the client
 * loop), and its outbox rows — then everything downstream in one: the relay's delete
 * of those outbox rows and every consumer's rows (inbox, audit record, projection rows: inserts of fresh rows,
 * updates of one hot row per table, as counters are), the hot-row updates last. A fraction of a row per message
 * (0.02 of a statement, say) is written by that fraction of the messages. The path itself takes more transactions
 * than two (one per consumer and batch), so this is the most the database does with these rows: a ceiling.
 */
export async function replayCeiling(opts: {
  databaseUrl: string
  namespace: string
  profile: Record<string, { ins: number; upd: number; del: number }>
  /** the sessions the messages go to (their rows copied), round-robin; none: no conversation leads (projections) */
  sessions?: string[]
  /** without sessions: events per transaction (a consumer's batch) */
  batch?: number
  clients: number
  seconds: number
  logger: Logger
}) {
  const schema = `${opts.namespace}_ceiling`
  const database = await createDatabase<any>(
    { driver: 'postgres', url: opts.databaseUrl, schema, pool_max: opts.clients + 1 },
    opts.logger,
  )
  const db = database.db
  const src = (t: string) => {
    const [unit, table] = t.split('.') as [string, string]
    return sql.raw(`"${opts.namespace}_${unit}"."${table}"`)
  }
  const copies = new Map<string, Copy>()
  try {
    for (const table of Object.keys(opts.profile)) {
      const name = `"${schema}"."${table.replace('.', '__')}"`
      await sql`create table ${sql.raw(name)} (like ${src(table)} including all)`.execute(db)
      const { rows } = await sql<{ row: Record<string, unknown> }>`
        select to_jsonb(t) as row from ${src(table)} t limit 1`.execute(db)
      const columns = await sql<{
        attname: string
        type: string
        unique_index: string | null
        pk: boolean
        required: boolean
      }>`
        select a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as required,
               (select min(i.indexrelid::text) from pg_index i where i.indrelid = a.attrelid and i.indisunique
                  and a.attnum = any(i.indkey)) as unique_index,
               exists(select 1 from pg_index i where i.indrelid = a.attrelid and i.indisprimary
                  and a.attnum = any(i.indkey)) as pk
        from pg_attribute a where a.attrelid = ${sql.raw(`'${name}'::regclass`)} and a.attnum > 0
          and not a.attisdropped order by a.attnum`.execute(db)
      const fresh = new Map<string, [string, string]>()
      for (const c of columns.rows) {
        if (c.unique_index && !fresh.has(c.unique_index) && /^(text|integer|bigint)$/.test(c.type))
          fresh.set(c.unique_index, [c.attname, c.type])
      }
      // a table the path empties again (an outbox: the relay deletes what it published) has no row to copy: its
      // row is made up, every required column filled, an event's envelope ~1 KiB (a message's is 0.9–1.2 KiB)
      const template = rows[0]?.row ?? madeUp(columns.rows)
      const key = columns.rows.filter((c) => c.pk).map((c) => [c.attname, template?.[c.attname]] as [string, unknown])
      const touch = columns.rows.find((c) => !c.pk && !c.unique_index)?.attname
      copies.set(table, { name, template, fresh: [...fresh.values()], touch, key })
      // the hot row the updates touch
      if (template) await insertRow(db, copies.get(table)!, {}, true).catch(() => {})
    }
    // with sessions: the conversation's own transaction leads (its three statements and its outbox rows)
    const lead = opts.sessions ? copies.get('conversations.sessions') : undefined
    const messages = copies.get('conversations.messages')
    if (opts.sessions) {
      if (!lead || !messages?.template) throw new Error('no message written: no profile to replay')
      await sql`delete from ${sql.raw(lead.name)}`.execute(db)
      await sql`insert into ${sql.raw(lead.name)} select * from ${src('conversations.sessions')}
        where id in (${sql.join(opts.sessions)})`.execute(db)
      // named s1…sN, so that a pgbench script picks one by number
      await sql`update ${sql.raw(lead.name)} c set id = 's' || n.n from
        (select id, row_number() over (order by id) as n from ${sql.raw(lead.name)}) n where c.id = n.id`.execute(db)
      opts.sessions = opts.sessions.map((_, i) => `s${i + 1}`)
    }
    if (pgbenchPath()) {
      return await runPgbench({
        db,
        databaseUrl: opts.databaseUrl,
        schema,
        copies,
        profile: opts.profile,
        lead,
        messages,
        sessions: opts.sessions?.length ?? 0,
        batch: opts.batch ?? 1,
        clients: opts.clients,
        seconds: opts.seconds,
      })
    }
    const own = (table: string) =>
      lead !== undefined && (table === 'conversations.sessions' || table === 'conversations.messages')
    const ownOutbox = (table: string) => lead !== undefined && table === 'conversations.outbox'
    // what each message writes besides the conversation's own three statements
    const rest = Object.entries(opts.profile).map(([table, w]) => ({
      table,
      copy: copies.get(table)!,
      ins: own(table) ? w.ins - 1 : w.ins,
      upd: own(table) ? w.upd - 1 : w.upd,
      del: w.del,
    }))
    const times = (rate: number) => Math.floor(rate) + (Math.random() < rate - Math.floor(rate) ? 1 : 0)
    let done = 0
    let failed = 0
    let next = 0
    const stopAt = performance.now() + opts.seconds * 1000
    /** everything downstream of one message: the relay's delete, the consumers' rows, the hot rows last */
    const downstream = async (tx: Kysely<any>, outbox: Array<[Copy, string]>, hot: boolean) => {
      for (const [copy, id] of outbox) await sql`delete from ${sql.raw(copy.name)} where id = ${id}`.execute(tx)
      for (const r of rest) {
        if (ownOutbox(r.table)) continue
        const ids: string[] = []
        for (let i = times(r.ins); i > 0; i--) ids.push(await insertRow(tx, r.copy, {}))
        for (let i = times(r.del); i > 0 && ids.at(-1); i--)
          await sql`delete from ${sql.raw(r.copy.name)} where id = ${ids.pop()}`.execute(tx)
      }
      if (hot) await hotRows(tx)
    }
    const hotRows = async (tx: Kysely<any>) => {
      for (const r of rest) {
        if (r.table === 'conversations.sessions' && lead) continue
        if (!r.copy.touch || r.copy.key.length === 0) continue
        for (let i = times(r.upd); i > 0; i--) {
          const where = sql.join(
            r.copy.key.map(([c, v]) => sql`${sql.ref(c)} = ${v}`),
            sql` and `,
          )
          await sql`update ${sql.raw(r.copy.name)} set ${sql.ref(r.copy.touch)} = ${sql.ref(r.copy.touch)}
            where ${where}`.execute(tx)
        }
      }
    }
    const batch = opts.batch ?? 1
    const message = async () => {
      if (!lead || !messages || !opts.sessions) {
        // no conversation: `batch` events' rows in one transaction, their hot rows once per event, last
        await db.transaction().execute(async (tx) => {
          for (let i = 0; i < batch; i++) await downstream(tx, [], false)
          for (let i = 0; i < batch; i++) await hotRows(tx)
        })
        return batch
      }
      const sessionId = opts.sessions[next++ % opts.sessions.length]!
      const outbox: Array<[Copy, string]> = []
      await db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ message_count: number }>`
          update ${sql.raw(lead.name)} set message_count = message_count + 1, last_message_at = now(),
            updated_at = now() where id = ${sessionId} returning message_count`.execute(tx)
        await insertRow(tx, messages, { session_id: sessionId, seq: rows[0]!.message_count })
        for (const r of rest) {
          if (!ownOutbox(r.table)) continue
          for (let i = times(r.ins); i > 0; i--) outbox.push([r.copy, await insertRow(tx, r.copy, {})])
        }
      })
      await db.transaction().execute((tx) => downstream(tx, outbox, true))
      return 1
    }
    const started = performance.now()
    await Promise.all(
      Array.from({ length: opts.clients }, async () => {
        while (performance.now() < stopAt) {
          try {
            done += await message()
          } catch (err) {
            failed++
            if (failed === 1) opts.logger.warn({ err }, 'ceiling replay: a message failed')
          }
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    return { messages_per_s: done / seconds, messages: done, failed, clients: opts.clients, seconds }
  } finally {
    await sql`drop schema if exists ${sql.raw(`"${schema}"`)} cascade`.execute(db).catch(() => {})
    await database.close()
  }
}

let sequence = 0
/** a copy of the template row, each unique index's chosen column made new; returns the row's `id` if it has one */
async function insertRow(db: Kysely<any>, copy: Copy, set: Record<string, unknown>, verbatim = false): Promise<string> {
  const row: Record<string, unknown> = { ...copy.template }
  for (const [column, type] of verbatim ? [] : copy.fresh) {
    row[column] = type === 'text' ? `c${process.pid}_${++sequence}_${Math.random().toString(36).slice(2)}` : ++sequence
  }
  Object.assign(row, set)
  await sql`insert into ${sql.raw(copy.name)} select * from jsonb_populate_record(null::${sql.raw(copy.name)}, ${JSON.stringify(row)}::jsonb)`.execute(
    db,
  )
  return String(row.id ?? '')
}

function madeUp(columns: Array<{ attname: string; type: string; required: boolean }>): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const c of columns) {
    if (!c.required) continue
    if (c.type === 'text')
      row[c.attname] = c.attname === 'envelope' ? 'x'.repeat(1024) : c.attname === 'headers' ? '{}' : 'x'
    else if (/^(integer|bigint|smallint|numeric|double precision|real)$/.test(c.type)) row[c.attname] = 0
    else if (c.type === 'boolean') row[c.attname] = false
    else if (c.type.startsWith('json')) row[c.attname] = {}
    else if (c.type.startsWith('timestamp')) row[c.attname] = new Date().toISOString()
  }
  return row
}
