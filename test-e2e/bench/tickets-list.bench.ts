// The ticket list on a million tickets of ONE tenant, on PostgreSQL: `npm run bench -- tickets-list`.
// The tickets service runs in this process on its own schema and listens on a port; the tickets are loaded by
// set-based SQL (the bulk loader below: no HTTP, no per-row round trips), then the first page of the five commonest
// filter combinations of a support team is asked for over HTTP, as the gateway would (a signed principal), and its
// latency taken per request. Target: p95 ≤ 50 ms for each. The query plans go into the results. Totals of lists
// filtered by status/priority only come from ticket_counts (migration 0023), the others from an index-only count.
import { randomBytes } from 'node:crypto'
import { signInternalPrincipal } from '@switchboard/auth'
import { dropNamespace } from '@switchboard/cli'
import { PRINCIPAL_HEADER } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { tickets } from '@switchboard/tickets'
import { countableByTotals } from '@switchboard/tickets/db/ticket-counts.repository.ts'
import { type DEFAULT_SORT, filteredTickets, type TicketFilters } from '@switchboard/tickets/db/ticket-query.ts'
import { sql } from 'kysely'
import { fmt, percentile } from './lib.ts'

const TENANT = 'bench-list'
const WORKSPACE = 'main'
const CUSTOMERS = 50_000
const AGENTS = 200
const STATUSES = ['open', 'assigned', 'in_progress', 'resolved', 'closed'] as const
// of every 20 tickets: 2 open, 2 assigned, 2 in progress, 6 resolved, 8 closed (a team that keeps up)
const STATUS_OF_20 = [0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
const PRIORITIES = ['low', 'normal', 'normal', 'normal', 'high', 'urgent'] as const
const CATEGORIES = ['general', 'billing', 'technical', 'account', 'feature_request'] as const

export interface ListCombo {
  name: string
  query: string
  p50_ms: number
  p95_ms: number
  p99_ms: number
  total: number
  plan: string[]
}

export interface TicketListBenchResult {
  tickets: number
  load_s: number
  requests_per_combo: number
  combos: ListCombo[]
  worst_p95_ms: number
}

/** One tenant's tickets over 90 days: UUIDv7-like ids in creation order, statuses and assignment as a team has them. */
async function bulkLoad(db: import('kysely').Kysely<any>, count: number): Promise<string[]> {
  const steps: string[] = []
  let started = performance.now()
  const step = (what: string) => {
    steps.push(`${what} ${fmt((performance.now() - started) / 1000)} s`)
    started = performance.now()
  }
  // the classic bulk load: secondary indexes dropped, rows written set-based, indexes built again from their
  // own definitions (the end state is the migrated one)
  const indexes = (
    await sql<{ name: string; def: string }>`
      select indexname as name, indexdef as def from pg_indexes
      where schemaname = current_schema() and tablename in ('tickets', 'ticket_tags')
        and indexname not in ('tickets_pkey', 'ticket_tags_pk')
    `.execute(db)
  ).rows
  for (const ix of indexes) await sql`drop index ${sql.id(ix.name)}`.execute(db)
  await sql`
    insert into tickets (id, title, description, customer_id, agent_id, category, priority, status, source, tags,
      custom_fields, tenant_id, workspace_id, created_at, updated_at, resolved_at, closed_at)
    select substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8' || substr(r, 4, 3) || '-' ||
        substr(r, 7, 12),
      'Ticket ' || g || ' about ' || (${sql.val(CATEGORIES)}::text[])[1 + g % 5], 'Customer wrote about order ' || g,
      'cust-' || (g::bigint * 7919 % ${CUSTOMERS}),
      case when st = 0 then null else 'agent-' || (abs(hashtext(g::text)) % ${AGENTS}) end,
      (${sql.val(CATEGORIES)}::text[])[1 + g % 5],
      (${sql.val(PRIORITIES)}::text[])[1 + (g / 5) % 6],
      (${sql.val([...STATUSES])}::text[])[1 + st],
      (array['web', 'email', 'chat', 'api'])[1 + (g / 3) % 4],
      case when g % 5 = 0 then '["vip"]'::jsonb else '[]'::jsonb end, '{}'::jsonb,
      ${TENANT}, ${WORKSPACE}, at, at + interval '1 hour',
      case when st >= 3 then at + interval '2 hours' end,
      case when st = 4 then at + interval '3 hours' end
    from (
      select g, at, lpad(to_hex((extract(epoch from at) * 1000)::bigint), 12, '0') as h, md5(g::text) as r,
        (${sql.val(STATUS_OF_20)}::int[])[1 + (g * 31) % 20] as st
      from (
        select g, now() - (${count}::integer - g) * (interval '90 days' / ${count}::integer) as at
        from generate_series(1, ${count}::integer) as g
      ) s
    ) o
    order by at
  `.execute(db)
  step('tickets')
  await sql`
    insert into ticket_tags (ticket_id, tag, tenant_id, workspace_id)
    select id, 'vip', tenant_id, workspace_id from tickets where tags @> '["vip"]'::jsonb
  `.execute(db)
  step('tags')
  for (const ix of indexes) await sql.raw(ix.def).execute(db)
  step('indexes')
  await sql`vacuum analyze`.execute(db)
  step('vacuum')
  return steps
}

export async function benchTicketList(
  logger: Logger,
  opts: { tickets: number; requests: number },
): Promise<TicketListBenchResult> {
  const engines = engineUrls()
  const namespace = uniqueId('benchlist')
  const internalSecret = randomBytes(24).toString('base64url')
  const base = tickets.loadConfig({ INTERNAL_SECRET: internalSecret, LOG_LEVEL: 'warn', SLA_MONITOR_ENABLED: 'false' })
  const app = await tickets.build(
    {
      ...base,
      port: 0,
      database: { driver: 'postgres', url: engines.databaseUrl, schema: `${namespace}_tickets`, pool_max: 8 },
      cache: { driver: 'redis', url: engines.redisUrl, prefix: `${namespace}:` },
      bus: { driver: 'nats', url: engines.natsUrl, prefix: namespace },
    },
    { logger },
  )
  try {
    await app.ready()
    const svc = tickets.contextOf(app)
    const loadStarted = performance.now()
    const steps = await bulkLoad(svc.db, opts.tickets)
    const load_s = (performance.now() - loadStarted) / 1000
    console.log(`tickets-list: loaded ${opts.tickets} tickets in one tenant in ${fmt(load_s)} s (${steps.join(', ')})`)

    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const token = await signInternalPrincipal(internalSecret, {
      user_id: 'agent-7',
      kind: 'agent',
      roles: ['agent'],
      permissions: ['tickets.*'],
      tenant_id: TENANT,
      workspace_id: WORKSPACE,
      session_id: 's',
      jti: 'j',
      token_tenant_id: TENANT,
      token_workspace_id: WORKSPACE,
    })
    const headers = { [PRINCIPAL_HEADER]: token }
    const scope = { tenant_id: TENANT, workspace_id: WORKSPACE }
    // The five commonest: the default list, the open queue, urgent work in flight, one agent's queue, one
    // customer's history — each its first page of 20, newest first, with its total.
    const combos: Array<{ name: string; query: string; filters: TicketFilters; sort?: typeof DEFAULT_SORT }> = [
      { name: 'all, newest first', query: '', filters: {} },
      { name: 'status=open', query: 'status=open', filters: { status: ['open'] } },
      {
        name: 'open+in_progress, urgent',
        query: 'status=open&status=in_progress&priority=urgent',
        filters: { status: ['open', 'in_progress'], priority: ['urgent'] },
      },
      {
        name: "an agent's queue",
        query: 'agent_id=agent-7&status=assigned&status=in_progress',
        filters: { agent_ids: ['agent-7'], status: ['assigned', 'in_progress'] },
      },
      { name: "a customer's history", query: 'customer_id=cust-4242', filters: { customer_ids: ['cust-4242'] } },
    ]
    const results: ListCombo[] = []
    for (const combo of combos) {
      const url = `${address}/api/tickets?page=1&page_size=20${combo.query ? `&${combo.query}` : ''}`
      const ask = async () => {
        const started = performance.now()
        const res = await fetch(url, { headers })
        const body = (await res.json()) as { total?: number; data?: unknown[] }
        if (res.status !== 200) throw new Error(`${combo.name}: ${res.status} ${JSON.stringify(body)}`)
        return { ms: performance.now() - started, total: Number(body.total) }
      }
      for (let i = 0; i < 20; i++) await ask()
      const times: number[] = []
      let total = 0
      // four callers at once: an office of agents refreshing their lists
      const callers = 4
      await Promise.all(
        Array.from({ length: callers }, async () => {
          for (let i = 0; i < Math.ceil(opts.requests / callers); i++) {
            const r = await ask()
            times.push(r.ms)
            total = r.total
          }
        }),
      )
      times.sort((a, b) => a - b)
      const q = filteredTickets(svc.db, 'postgres', scope, combo.filters)
      const page = q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20)
      const count = q.select((eb) => eb.fn.countAll().as('n'))
      const explain = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
        const c = query.compile()
        const r = await svc.db.executeQuery<{ 'QUERY PLAN': string }>({
          ...c,
          sql: `explain (analyze, buffers, costs off) ${c.sql}`,
          query: (c as any).query,
        } as any)
        return r.rows.map((row) => row['QUERY PLAN'])
      }
      // status/priority only: the total is a sum over ticket_counts (migration 0023), not a count of rows
      const countPlan = countableByTotals('postgres', combo.filters)
        ? [
            `(total from ticket_counts: ${
              (await sql<{ n: string }>`select count(*) as n from ticket_counts`.execute(svc.db)).rows[0]?.n
            } rows summed)`,
          ]
        : await explain(count)
      const plan = [...(await explain(page)), '-- total --', ...countPlan]
      const result = {
        name: combo.name,
        query: combo.query,
        p50_ms: percentile(times, 50),
        p95_ms: percentile(times, 95),
        p99_ms: percentile(times, 99),
        total,
        plan,
      }
      results.push(result)
      console.log(
        `tickets-list: ${combo.name.padEnd(26)} total ${String(total).padStart(7)}  p50 ${fmt(result.p50_ms)} ms  ` +
          `p95 ${fmt(result.p95_ms)} ms  p99 ${fmt(result.p99_ms)} ms (target p95 ≤ 50 ms)`,
      )
    }
    for (const r of results) {
      console.log(`tickets-list: plan of "${r.name}":`)
      for (const line of r.plan) console.log(`    ${line}`)
    }
    return {
      tickets: opts.tickets,
      load_s,
      requests_per_combo: opts.requests,
      combos: results,
      worst_p95_ms: Math.max(...results.map((r) => r.p95_ms)),
    }
  } finally {
    await app.close()
    if (process.env.BENCH_LIST_KEEP === '1') console.log(`tickets-list: kept schema ${namespace}_tickets`)
    else await dropNamespace(namespace, engines).catch((err) => console.error('namespace cleanup failed', err))
  }
}
