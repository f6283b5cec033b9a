// The list's totals from counts (PostgreSQL, migration 0023): equal to counting the rows after inserts, moves of
// status, priority and scope, deletes, concurrent writers and folds beside writers; a rebuild, and migration 0023
// on tickets already there, give the same answer;
// SQLite counts rows.
import { type Kysely, sql } from 'kysely'
import t, { type Test } from 'tap'
import type { TicketsDatabase } from '../../src/db/database.ts'
import * as ticketCounts0023 from '../../src/db/migrations/20261124_0023_ticket_counts.ts'
import {
  compactTicketCounts,
  countableByTotals,
  rebuildTicketCounts,
  totalFromCounts,
} from '../../src/db/ticket-counts.repository.ts'
import { DEFAULT_SORT, listTickets } from '../../src/db/ticket-query.ts'
import { ticketsApp } from '../helpers/app.ts'

const ACME = { tenant_id: 'acme', workspace_id: 'support' }
const STATUSES = ['open', 'assigned', 'in_progress', 'resolved', 'closed']
const PRIORITIES = ['low', 'normal', 'high', 'urgent']

const ticket = (i: number) => {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()
  return {
    id: `t-${String(i).padStart(5, '0')}`,
    title: `Ticket ${i}`,
    description: '',
    customer_id: `c-${i % 50}`,
    agent_id: null,
    session_id: null,
    category: 'general',
    priority: PRIORITIES[i % 4]!,
    status: STATUSES[i % 5]!,
    source: 'web',
    tags: '[]',
    custom_fields: '{}',
    tenant_id: i % 7 === 0 ? 'globex' : 'acme',
    workspace_id: 'support',
    created_at: at,
    updated_at: at,
  }
}

t.test('countableByTotals: only status and priority, only on PostgreSQL', async (t) => {
  t.ok(countableByTotals('postgres', {}))
  t.ok(countableByTotals('postgres', { status: ['open'], priority: ['high', 'urgent'] }))
  t.ok(countableByTotals('postgres', { tags: [], ranges: {} }))
  t.notOk(countableByTotals('sqlite', {}))
  t.notOk(countableByTotals('postgres', { status: ['open'], agent_ids: ['a'] }))
  t.notOk(countableByTotals('postgres', { search: 'printer' }))
  t.notOk(countableByTotals('postgres', { ranges: { created_at: { from: '2026-01-01T00:00:00.000Z' } } }))
  t.notOk(countableByTotals('postgres', { custom: [{ key: 'plan', texts: ['x'], numbers: [] }] }))
})

t.test('totals from counters equal the rows counted (postgres)', async (t) => {
  const { svc, store } = await ticketsApp(t, 'postgres')
  const db = svc.db as Kysely<TicketsDatabase>
  const counted = async (scope: typeof ACME, f: { status?: string[]; priority?: string[] }) => {
    let q = db.selectFrom('tickets').select((eb) => eb.fn.countAll<string>().as('n'))
    if (scope.tenant_id) q = q.where('tenant_id', '=', scope.tenant_id).where('workspace_id', '=', scope.workspace_id)
    if (f.status?.length) q = q.where('status', 'in', f.status)
    if (f.priority?.length) q = q.where('priority', 'in', f.priority)
    return Number((await q.executeTakeFirstOrThrow()).n)
  }
  const combos = [
    {},
    { status: ['open'] },
    { status: ['open', 'in_progress'], priority: ['urgent'] },
    { priority: ['low', 'high'] },
  ]
  const agree = async (t: Test, what: string) => {
    for (const f of combos) {
      for (const scope of [
        ACME,
        { tenant_id: 'globex', workspace_id: 'support' },
        { tenant_id: '', workspace_id: '' },
      ]) {
        t.equal(await totalFromCounts(db, scope, f), await counted(scope, f), `${what}: ${JSON.stringify([scope, f])}`)
      }
    }
  }

  await db
    .insertInto('tickets')
    .values(Array.from({ length: 400 }, (_, i) => ticket(i)))
    .execute()
  await agree(t, 'after inserts')

  await db.updateTable('tickets').set({ status: 'closed' }).where('status', '=', 'open').execute()
  await db.updateTable('tickets').set({ priority: 'urgent' }).where('priority', '=', 'low').execute()
  await db.updateTable('tickets').set({ title: 'renamed' }).execute()
  await db.updateTable('tickets').set({ tenant_id: 'globex' }).where('id', '<', 't-00050').execute()
  await db.deleteFrom('tickets').where('id', '>', 't-00350').execute()
  await agree(t, 'after moves and deletes')

  // twenty writers at once, each moving its own tickets through every status
  await Promise.all(
    Array.from({ length: 20 }, (_, w) =>
      db.transaction().execute(async (trx) => {
        for (const status of STATUSES) {
          await trx
            .updateTable('tickets')
            .set({ status })
            .where(sql<boolean>`cast(substr(id, 3) as integer) % 20 = ${w}`)
            .execute()
        }
      }),
    ),
  )
  await agree(t, 'after concurrent writers')

  const rowsOf = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from ticket_counts`.execute(db)).rows[0]?.n)
  const before = await rowsOf()
  // a fold while writers keep appending: nothing lost, nothing counted twice
  const [folded] = await Promise.all([
    compactTicketCounts(db),
    db.updateTable('tickets').set({ status: 'open' }).where('status', '=', 'closed').execute(),
    db
      .insertInto('tickets')
      .values(Array.from({ length: 30 }, (_, i) => ticket(1000 + i)))
      .execute(),
  ])
  t.ok(folded > 0, `folded ${folded} of ${before} rows`)
  await agree(t, 'after a fold beside writers')
  await compactTicketCounts(db)
  const keys = await sql<{ n: string; k: string }>`
    select count(*) as n, count(distinct (tenant_id, workspace_id, status, priority)) as k from ticket_counts
  `.execute(db)
  t.equal(keys.rows[0]?.n, keys.rows[0]?.k, 'one row per key once folded')
  await agree(t, 'after a second fold')

  await rebuildTicketCounts(db)
  await agree(t, 'after a rebuild')

  // an operator's session with another search_path, naming the schema: the trigger still counts into this schema
  const schema = (store.database as { schema: string }).schema
  await db.transaction().execute(async (trx) => {
    await sql`set local search_path = public`.execute(trx)
    await sql`update ${sql.id(schema, 'tickets')} set status = 'resolved' where status = 'open'`.execute(trx)
  })
  await agree(t, 'after a write from another search_path')
  // a fold leaves keys that are already one row alone
  await compactTicketCounts(db)
  t.equal(await compactTicketCounts(db), 0, 'nothing to fold twice')

  // the list answers its total from them, with the same rows as before
  const list = await listTickets(db, 'postgres', ACME, { status: ['closed'] }, DEFAULT_SORT, {
    offset: 0,
    limit: 5,
    page: 1,
    page_size: 5,
  })
  t.equal(list.total, await counted(ACME, { status: ['closed'] }))
  t.equal(list.rows.length, 5)
  t.ok(list.rows.every((r) => r.status === 'closed' && r.tenant_id === 'acme'))
})

t.test('SQLite has no counters: the list counts its rows', async (t) => {
  const { svc } = await ticketsApp(t, 'sqlite')
  const db = svc.db as Kysely<TicketsDatabase>
  await db
    .insertInto('tickets')
    .values(Array.from({ length: 40 }, (_, i) => ticket(i)))
    .execute()
  const list = await listTickets(db, 'sqlite', ACME, { status: ['open'] }, DEFAULT_SORT, {
    offset: 0,
    limit: 100,
    page: 1,
    page_size: 100,
  })
  t.equal(list.total, list.rows.length)
  t.ok(list.total > 0)
})

t.test('migration 0023 counts the tickets already there (postgres), with its own copy of the rebuild', async (t) => {
  const { svc } = await ticketsApp(t, 'postgres')
  const db = svc.db as Kysely<TicketsDatabase>
  await db
    .insertInto('tickets')
    .values(Array.from({ length: 120 }, (_, i) => ticket(i)))
    .execute()
  // as before 0023 ran: no counts table, no triggers; then 0023 again, in a transaction as the migrator runs it
  await db.transaction().execute(async (trx) => {
    await sql`drop function ticket_counts_append() cascade`.execute(trx)
    await sql`drop table ticket_counts`.execute(trx)
    await ticketCounts0023.up(trx)
  })
  const byKey = (table: 'ticket_counts' | 'tickets', n: string) =>
    sql<{ k: string; n: number }>`
      select tenant_id || '/' || workspace_id || '/' || status || '/' || priority as k, ${sql.raw(n)}::int as n
      from ${sql.table(table)} group by 1 order by 1
    `
      .execute(db)
      .then((r) => r.rows)
  const counts = await byKey('ticket_counts', 'sum(n)')
  t.equal(
    counts.reduce((sum, c) => sum + c.n, 0),
    120,
    'every ticket counted once',
  )
  t.ok(counts.length > 20, 'both scopes, many keys')
  t.same(counts, await byKey('tickets', 'count(*)'))
})
