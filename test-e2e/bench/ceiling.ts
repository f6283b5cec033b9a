// The ceiling of a write path: what PostgreSQL alone does with the same rows (issue 24 §4). `tableWrites` reads
// PostgreSQL's own row counters (pg_stat_user_tables) of a namespace's schemas, so the writes a path causes are
// measured, not guessed: every unit's, the consumers' and the relay's. `replayCeiling` then writes those rows per
// message, straight to PostgreSQL from this process, into copies of the same tables (same columns, indexes and
// constraints) in a schema of its own.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatabase, type Logger } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import { statOf } from './machine.ts'

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

interface Copy {
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
 * least: the conversation's own — lock the session (`SELECT … FOR UPDATE`), raise its counter (`UPDATE … RETURNING`),
 * insert the message with that `seq`, and its outbox rows — then everything downstream in one: the relay's delete
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
        await sql`select id from ${sql.raw(lead.name)} where id = ${sessionId} for update`.execute(tx)
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

function pgbenchPath(): string | undefined {
  if (process.env.BENCH_CEILING_PGBENCH === '0') return undefined
  try {
    return execFileSync('which', ['pgbench'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/**
 * The replay as a pgbench script (C, two threads: a client loop in this Node process is itself the limit on a
 * loaded machine — PostgreSQL's backends then wait on it, `ClientRead`). One script run is one message (or, with no
 * conversation leading, `batch` events in one transaction). Rows are made from the template rows kept in a table
 * (`jsonb_populate_record`), each unique index's chosen column made new from the client and a random number.
 */
async function runPgbench(o: {
  db: Kysely<any>
  databaseUrl: string
  schema: string
  copies: Map<string, Copy>
  profile: Record<string, { ins: number; upd: number; del: number }>
  lead: Copy | undefined
  messages: Copy | undefined
  sessions: number
  batch: number
  clients: number
  seconds: number
}) {
  const tpl = `"${o.schema}"."templates"`
  await sql`create table ${sql.raw(tpl)} (name text primary key, row jsonb not null)`.execute(o.db)
  for (const [table, copy] of o.copies) {
    await sql`insert into ${sql.raw(tpl)} values (${table}, ${JSON.stringify(copy.template ?? {})}::jsonb)`.execute(
      o.db,
    )
  }
  const q = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`)
  let n = 0
  /** an insert of a new row of `table`: its fresh columns from the client, :k and a statement number */
  const insert = (table: string, set: Record<string, string> = {}) => {
    const copy = o.copies.get(table)!
    const i = ++n
    const fresh = copy.fresh.map(([c, type]) =>
      type === 'text'
        ? `'${c}', concat('f', :client_id, '_', :k, '_${i}')`
        : `'${c}', (:k % 100000000) * 100 + ${i % 100}`,
    )
    const extra = Object.entries(set).map(([c, e]) => `'${c}', ${e}`)
    const obj = [...fresh, ...extra].join(', ')
    return `INSERT INTO ${copy.name} SELECT * FROM jsonb_populate_record(null::${copy.name}, (SELECT row FROM ${tpl} WHERE name = '${table}')${obj ? ` || jsonb_build_object(${obj})` : ''}) ON CONFLICT DO NOTHING;`
  }
  const update = (table: string) => {
    const copy = o.copies.get(table)!
    if (!copy.touch || copy.key.length === 0) return undefined
    const where = copy.key.map(([c, v]) => `"${c}" = ${q(v)}`).join(' AND ')
    return `UPDATE ${copy.name} SET "${copy.touch}" = "${copy.touch}" WHERE ${where};`
  }
  /** `count` times a statement; the fraction of one by a random draw */
  const times = (count: number, line: () => string | undefined) => {
    const out: string[] = []
    for (let i = 0; i < Math.floor(count + 1e-9); i++) {
      const l = line()
      if (l) out.push(l)
    }
    const frac = count - Math.floor(count + 1e-9)
    const l = frac > 0.0005 ? line() : undefined
    if (l) out.push('\\set r random(1, 10000)', `\\if :r <= ${Math.round(frac * 10000)}`, l, '\\endif')
    return out
  }
  const own = (t: string) => o.lead !== undefined && (t === 'conversations.sessions' || t === 'conversations.messages')
  const ownOutbox = (t: string) => o.lead !== undefined && t === 'conversations.outbox'
  const lines: string[] = []
  const downstream = (outboxIds: string[]) => {
    if (outboxIds.length > 0) {
      const outbox = o.copies.get('conversations.outbox')!
      lines.push(`DELETE FROM ${outbox.name} WHERE id IN (${outboxIds.join(', ')});`)
    }
    for (const [t, w] of Object.entries(o.profile)) {
      if (ownOutbox(t)) continue
      const ins = own(t) ? w.ins - 1 : w.ins
      if (ins > 0) lines.push(...times(ins, () => insert(t)))
      // the path's deletes of rows it wrote (a consumer's own outbox): a row inserted and deleted
      if (w.del > 0 && !own(t) && o.copies.get(t)!.fresh.some(([c]) => c === 'id'))
        lines.push(...times(w.del, () => `DELETE FROM ${o.copies.get(t)!.name} WHERE id = concat('gone', :k);`))
    }
  }
  const hot = () => {
    for (const [t, w] of Object.entries(o.profile)) {
      if (t === 'conversations.sessions' && o.lead) continue
      const upd = own(t) ? w.upd - 1 : w.upd
      if (upd > 0) lines.push(...times(upd, () => update(t)))
    }
  }
  lines.push('\\set k random(1, 2000000000)')
  if (o.lead && o.messages) {
    lines.push(`\\set s random(1, ${o.sessions})`, 'BEGIN;')
    lines.push(`SELECT id FROM ${o.lead.name} WHERE id = concat('s', :s) FOR UPDATE;`)
    lines.push(
      `UPDATE ${o.lead.name} SET message_count = message_count + 1, last_message_at = now(), updated_at = now() WHERE id = concat('s', :s) RETURNING message_count AS seq \\gset`,
    )
    lines.push(insert('conversations.messages', { session_id: `concat('s', :s)`, seq: ':seq' }))
    const outboxIds: string[] = []
    const outboxRows = o.profile['conversations.outbox']?.ins ?? 0
    for (let i = 1; i <= Math.round(outboxRows); i++) {
      outboxIds.push(`concat('o', :client_id, '_', :k, '_${i}')`)
      lines.push(insert('conversations.outbox', { id: outboxIds.at(-1)! }))
    }
    lines.push('COMMIT;', 'BEGIN;')
    downstream(outboxIds)
    hot()
    lines.push('COMMIT;')
  } else {
    lines.push('BEGIN;')
    for (let i = 0; i < o.batch; i++) {
      lines.push(`\\set k random(1, 2000000000)`)
      downstream([])
    }
    for (let i = 0; i < o.batch; i++) hot()
    lines.push('COMMIT;')
  }
  const dir = mkdtempSync(join(tmpdir(), 'ceiling-'))
  const file = join(dir, 'message.sql')
  writeFileSync(file, `${lines.join('\n')}\n`)
  try {
    const url = new URL(o.databaseUrl)
    const args = [
      '-n',
      '-c',
      String(o.clients),
      '-j',
      '2',
      '-T',
      String(Math.max(1, Math.round(o.seconds))),
      '-f',
      file,
    ]
    args.push('-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'))
    args.push(url.pathname.slice(1) || 'postgres')
    // the CPU the replay takes: pgbench and the PostgreSQL backends it opens (new postgres processes), sampled
    // every 200 ms while it runs (a backend's CPU is gone from /proc once it exits): ms of CPU per message
    const existing = new Set(readdirSync('/proc').filter((e) => /^\d+$/.test(e)))
    const used = new Map<string, number>()
    let pgbenchPid: number | undefined
    const sample = () => {
      for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid) || existing.has(pid)) continue
        const st = statOf(pid)
        if (st && (st.comm === 'postgres' || Number(pid) === pgbenchPid)) used.set(pid, st.cpu)
      }
    }
    const sampler = setInterval(sample, 200)
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(pgbenchPath()!, args, {
        env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
      })
      pgbenchPid = child.pid
      let text = ''
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString()
      })
      child.stderr.on('data', (c: Buffer) => {
        text += c.toString()
      })
      child.on('error', reject)
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}: ${text}`))))
    })
    clearInterval(sampler)
    const cpuS = [...used.values()].reduce((a, b) => a + b, 0)
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN)
    const processed = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? 0)
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0)
    const perRun = o.lead ? 1 : o.batch
    // the rows the replay left in each copy (inserted and not deleted): checks that no insert was skipped
    const rows: Record<string, number> = {}
    for (const [table, copy] of o.copies) {
      const { rows: r } = await sql<{ n: string }>`select count(*) as n from ${sql.raw(copy.name)}`.execute(o.db)
      rows[table] = Number(r[0]!.n)
    }
    return {
      rows_left: rows,
      /** ms of CPU per message (pgbench and its backends), whatever the machine's other load */
      cpu_ms_per_message: (1000 * cpuS) / (processed * perRun),
      messages_per_s: tps * perRun,
      messages: processed * perRun,
      failed,
      clients: o.clients,
      seconds: o.seconds,
      tool: 'pgbench',
      statements_per_message:
        lines.filter((l) => !l.startsWith('\\') && l !== 'BEGIN;' && l !== 'COMMIT;').length / perRun,
      script: lines.length <= 40 ? lines.join('\n') : undefined,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
