// The ceiling's replay as a pgbench script (ceiling.ts decides what to replay; this runs it and measures it).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import type { Copy } from './ceiling.ts'
import { statOf } from './machine.ts'

export function pgbenchPath(): string | undefined {
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
export async function runPgbench(o: {
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
  /**
   * an insert of a new row of `table`: its fresh columns from the client, :k and a statement number; `from`: what the
   * row's values may refer to besides (a `WITH` query's name and a comma)
   */
  const insert = (table: string, set: Record<string, string> = {}, from = '') => {
    const copy = o.copies.get(table)!
    const i = ++n
    const fresh = copy.fresh.map(([c, type]) =>
      type === 'text'
        ? `'${c}', concat('f', :client_id, '_', :k, '_${i}')`
        : `'${c}', (:k % 100000000) * 100 + ${i % 100}`,
    )
    const extra = Object.entries(set).map(([c, e]) => `'${c}', ${e}`)
    const obj = [...fresh, ...extra].join(', ')
    return `INSERT INTO ${copy.name} SELECT r.* FROM ${from}jsonb_populate_record(null::${copy.name}, (SELECT row FROM ${tpl} WHERE name = '${table}')${obj ? ` || jsonb_build_object(${obj})` : ''}) r ON CONFLICT DO NOTHING;`
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
    lines.push(`\\set s random(1, ${o.sessions})`)
    const outboxIds: string[] = []
    const outboxRows = Math.round(o.profile['conversations.outbox']?.ins ?? 0)
    for (let i = 1; i <= outboxRows; i++) outboxIds.push(`concat('o', :client_id, '_', :k, '_${i}')`)
    // as conversations writes an agent's message: ONE statement and no transaction — the session's counter raised
    // (its row locked by that update), the message with that `seq` and its event's outbox row
    const message = insert(
      'conversations.messages',
      { session_id: `concat('s', :s)`, seq: 'counted.message_count' },
      'counted, ',
    )
    lines.push(
      `WITH counted AS (UPDATE ${o.lead.name} SET message_count = message_count + 1, last_message_at = now(), updated_at = now() WHERE id = concat('s', :s) RETURNING message_count), ` +
        `written AS (${message.slice(0, -1)}) ` +
        (outboxIds[0] ? insert('conversations.outbox', { id: outboxIds[0] }, 'counted, ') : 'SELECT 1 FROM counted;'),
    )
    // the other rows of its outbox (the audit record), each a statement of its own
    for (const id of outboxIds.slice(1)) lines.push(insert('conversations.outbox', { id }))
    lines.push('BEGIN;')
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
