// The SLA consumer's read for every agent message (awaitingFirstResponse): the session's own open tickets and the
// one its link names, with no first response before the message. Its answers in both storage modes, and its plan
// with 5,000 open tickets in the workspace: index lookups only (no Seq Scan, no walk of tickets_sla_open_idx),
// where the former `session_id = … OR id IN (…)` read scanned every open ticket of the workspace.
import { inEachStorageMode } from '@switchboard/testing'
import { CompiledQuery, type Kysely } from 'kysely'
import t from 'tap'
import type { TicketsDatabase } from '../../src/db/database.ts'
import { awaitingFirstResponseIn, awaitingFirstResponseQuery } from '../../src/db/sla-projections.repository.ts'
import { ticketsApp } from '../helpers/app.ts'

type Db = Kysely<TicketsDatabase>
const ACME = { tenant_id: 'acme', workspace_id: 'support' }
const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }
const BEFORE = '2026-06-01T00:00:00.000Z'
const OPEN_TICKETS = 5000

const ticket = (id: string, o: Partial<{ session_id: string | null; status: string; created_at: string }> = {}) => {
  const at = o.created_at ?? '2026-01-01T00:00:00.000Z'
  return {
    id,
    title: id,
    description: '',
    customer_id: 'cust-1',
    agent_id: null,
    session_id: o.session_id ?? null,
    category: 'general',
    priority: 'normal',
    status: o.status ?? 'open',
    source: 'web',
    tags: '[]',
    custom_fields: '{}',
    ...ACME,
    created_at: at,
    updated_at: at,
  }
}

const link = (session_id: string, ticket_id: string | null, scope = ACME) => ({
  session_id,
  ticket_id,
  customer_id: 'cust-1',
  ...scope,
  updated_at: '2026-01-01T00:00:00.000Z',
})

/** The read as it was (one statement, `session_id = … OR id IN (subquery)`): the contrast for results and plan. */
const orStatement = (db: Db, scope: typeof ACME, sessionId: string, before: string) =>
  db
    .selectFrom('tickets')
    .select(['id', 'tenant_id', 'workspace_id', 'priority', 'customer_id', 'status', 'created_at', 'resolved_at'])
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('first_response_at', 'is', null)
    .where('status', 'in', ['open', 'assigned', 'in_progress'])
    .where('created_at', '<=', before)
    .where((eb) =>
      eb.or([
        eb('session_id', '=', sessionId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('sla_session_tickets as link')
            .select('link.ticket_id')
            .where('link.session_id', '=', sessionId)
            .where('link.tenant_id', '=', scope.tenant_id)
            .where('link.workspace_id', '=', scope.workspace_id)
            .where('link.ticket_id', 'is not', null),
        ),
      ]),
    )

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort()
/** the read for one session */
const awaitingFirstResponse = (db: Db, scope: typeof ACME, session: string, before: string) =>
  awaitingFirstResponseIn(db, scope, [session], before)

inEachStorageMode(t, 'awaitingFirstResponse: own and linked open tickets, once each', async (t, mode) => {
  const { svc } = await ticketsApp(t, mode)
  const db = svc.db as Db
  await db
    .insertInto('tickets')
    .values([
      ticket('a1', { session_id: 'S1' }),
      ticket('b1'),
      ticket('c1', { session_id: 'S1', status: 'resolved' }),
      ticket('d1', { session_id: 'S1' }),
      ticket('e1', { session_id: 'S1', created_at: '2026-07-01T00:00:00.000Z' }),
      ticket('p1', { session_id: 'S1', status: 'in_progress' }),
      ticket('a2', { session_id: 'S2' }),
      ticket('b4'),
      ticket('b5', { status: 'closed' }),
      ticket('b6', { status: 'assigned' }),
      { ...ticket('g1', { session_id: 'S1' }), ...GLOBEX },
    ])
    .execute()
  await db
    .updateTable('tickets')
    .set({ first_response_at: '2026-02-01T00:00:00.000Z' })
    .where('id', '=', 'd1')
    .execute()
  await db
    .insertInto('sla_session_tickets')
    .values([
      link('S1', 'b1'),
      link('S2', 'a2'),
      link('S3', null),
      link('S4', 'b4', GLOBEX),
      link('S5', 'b5'),
      link('S6', 'b6'),
      link('S7', 'g1'),
    ])
    .execute()

  const cases: [string, string[]][] = [
    ['S1', ['a1', 'b1', 'p1']], // own (not resolved, answered or later) + linked; not another tenant's
    ['S2', ['a2']], // own and linked: once
    ['S3', []], // unlinked session
    ['S4', []], // a link kept in another scope
    ['S5', []], // linked to a closed ticket
    ['S6', ['b6']], // linked only
    ['S7', []], // linked to another tenant's ticket
    ['nope', []],
  ]
  for (const [session, expected] of cases) {
    const got = await awaitingFirstResponse(db, ACME, session, BEFORE)
    t.same(ids(got), expected, `${session}: ${expected.join(', ') || 'none'}`)
    t.same(ids(got), ids(await orStatement(db, ACME, session, BEFORE).execute()), `${session}: as the OR read said`)
  }
  const [a1] = await awaitingFirstResponse(db, ACME, 'S1', '2026-01-01T00:00:00.000Z')
  t.match(a1, { id: 'a1', ...ACME, priority: 'normal', customer_id: 'cust-1', status: 'open', resolved_at: null })
  t.ok(a1?.created_at, 'created_at read')
  t.same(ids(await awaitingFirstResponse(db, GLOBEX, 'S1', BEFORE)), ['g1'], "the other tenant's own ticket")

  // a batch's read: every session of it at once, each row with the session it answers to
  const batch = await awaitingFirstResponseIn(db, ACME, ['S1', 'S2', 'S3', 'S5', 'S6', 'S7', 'nope'], BEFORE)
  const pairs = batch.map((r) => `${r.via}:${r.id}`).sort()
  t.same(pairs, ['S1:a1', 'S1:b1', 'S1:p1', 'S2:a2', 'S6:b6'], 'the same tickets as one read per session, by session')
})

type PgNode = { 'Node Type': string; 'Index Name'?: string; 'Index Cond'?: string; Plans?: PgNode[] }
const pgNodes = (n: PgNode): PgNode[] => [n, ...(n.Plans ?? []).flatMap(pgNodes)]

/** Each scan of the plan: `<node type> <index or ''> <condition or ''>`. */
async function scans(db: Db, mode: string, q: { compile(): CompiledQuery }): Promise<string[]> {
  const c = q.compile()
  if (mode === 'postgres') {
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
      CompiledQuery.raw(`explain (format json) ${c.sql}`, [...c.parameters]),
    )
    return pgNodes(rows[0]!['QUERY PLAN'][0].Plan)
      .filter((n) => n['Node Type'].includes('Scan'))
      .map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''} ${n['Index Cond'] ?? ''}`)
  }
  const { rows } = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]),
  )
  return rows.map((r) => r.detail).filter((d) => /^(SCAN|SEARCH)/.test(d))
}

/** The mean time of `runs` executions, in ms. */
async function timed(runs: number, fn: () => Promise<unknown>) {
  const start = performance.now()
  for (let i = 0; i < runs; i++) await fn()
  return (performance.now() - start) / runs
}

inEachStorageMode(t, `awaitingFirstResponse with ${OPEN_TICKETS} open tickets: index lookups only`, async (t, mode) => {
  const { svc } = await ticketsApp(t, mode)
  const db = svc.db as Db
  for (let from = 0; from < OPEN_TICKETS; from += 500) {
    const batch = Array.from({ length: 500 }, (_, k) => from + k)
    await db
      .insertInto('tickets')
      .values(batch.map((i) => ticket(`t-${i}`, { session_id: `own-${i}` })))
      .execute()
    // as many answered ones beside them, which the open-ticket index leaves out
    await db
      .insertInto('tickets')
      .values(batch.map((i) => ticket(`r-${i}`, { session_id: `done-${i}`, status: 'resolved' })))
      .execute()
    await db
      .insertInto('sla_session_tickets')
      .values(batch.filter((i) => i % 2 === 0).map((i) => link(`link-${i}`, `t-${i}`)))
      .execute()
  }
  if (mode === 'postgres') await db.executeQuery(CompiledQuery.raw('analyze tickets, sla_session_tickets'))

  t.same(ids(await awaitingFirstResponse(db, ACME, 'own-41', BEFORE)), ['t-41'])
  t.same(ids(await awaitingFirstResponse(db, ACME, 'link-42', BEFORE)), ['t-42'])

  // a batch's read: several sessions at once, own and linked
  const plan = await scans(db, mode, awaitingFirstResponseQuery(db, ACME, ['link-42', 'own-41', 'link-44'], BEFORE))
  t.comment(`plan: ${plan.join(' | ')}`)
  const former = await scans(db, mode, orStatement(db, ACME, 'link-42', BEFORE))
  t.comment(`the OR read's plan: ${former.join(' | ')}`)
  if (mode === 'postgres') {
    // every scan is an index lookup with a condition: no Seq Scan, and no walk of the open-ticket index
    const lookup =
      /^(Index Scan|Index Only Scan|Bitmap Index Scan) (tickets_session_idx|tickets_scope_session_idx|tickets_pkey|sla_session_tickets_pkey) .+/
    // a Bitmap Heap Scan reads the rows its Bitmap Index Scan (checked on its own) found
    const lookups = plan.filter((s) => !s.startsWith('Bitmap Heap Scan'))
    t.ok(lookups.length >= 3, 'tickets by session, the link, the linked ticket')
    for (const s of lookups) t.match(s, lookup, `lookup: ${s}`)
    t.notOk(
      former.filter((s) => !s.startsWith('Bitmap Heap Scan')).every((s) => lookup.test(s)),
      'the OR read is not (it scans the open tickets): the check tells them apart',
    )
  } else {
    // SQLite's plan names each search: tickets only by session or by key, never a range of the scope
    const lookup =
      /^SEARCH (tickets USING INDEX (tickets_scope_session_idx \(tenant_id=\? AND workspace_id=\? AND session_id=\? AND created_at<\?\)|sqlite_autoindex_tickets_1 \(id=\?\))|sla_session_tickets USING INDEX sqlite_autoindex_sla_session_tickets_1 \(session_id=\?\))$/
    t.ok(plan.length >= 3, 'tickets by session, the link, the linked ticket')
    for (const s of plan) t.match(s, lookup, `lookup: ${s}`)
    t.notOk(
      former.every((s) => lookup.test(s)),
      'the OR read is not (it searches the scope): the check tells them apart',
    )
  }

  // alternated, after a warm-up of each
  let now = 0
  let then = 0
  for (let round = 0; round < 3; round++) {
    const n = await timed(50, () => awaitingFirstResponse(db, ACME, 'link-42', BEFORE))
    const o = await timed(50, () => orStatement(db, ACME, 'link-42', BEFORE).execute())
    if (round > 0) [now, then] = [now + n / 2, then + o / 2]
  }
  t.comment(
    `mean of 100 reads with ${OPEN_TICKETS} open tickets (${mode}): OR read ${then.toFixed(3)} ms, now ${now.toFixed(3)} ms`,
  )
})
