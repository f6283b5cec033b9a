// The SLA monitor's pass over a large backlog of open tickets, on PostgreSQL: `npm run bench -- sla`.
// The tickets service is built in this process on its own schema (the monitor's schedule off), the tables are
// filled by set-based SQL (no HTTP, no per-row round trips), and the pass is timed as the worker runs it:
// svc.workers.runOnce('tickets-sla-monitor', now). Target: ≤ 10 s over 1,000,000 open tickets.
import { randomBytes } from 'node:crypto'
import { dropNamespace } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { tickets } from '@switchboard/tickets'
import { allCalendars } from '@switchboard/tickets/db/business-hours.repository.ts'
import { activeConfigs } from '@switchboard/tickets/db/sla-configs.repository.ts'
import { breachesQuery } from '@switchboard/tickets/db/sla-monitor.repository.ts'
import { matchTable } from '@switchboard/tickets/domain/sla-match.ts'
import { SLA_MONITOR_WORKER } from '@switchboard/tickets/workers/sla-monitor.worker.ts'
import { sql } from 'kysely'
import { fmt } from './lib.ts'

export interface SlaBenchResult {
  tickets: number
  tenants: number
  configs: number
  match_rows: number
  load_s: number
  violations_before: number
  pass_s: number
  pass_recorded: number
  steady_pass_s: number
  steady_recorded: number
  scan_s: number
  plan: string[]
}

const TENANTS = 10
const CUSTOMERS = 100_000
// minutes: first response, resolution (catch-all tier), and the urgent tier's tighter pair for high and urgent
const TIMES: Record<string, [number, number]> = {
  low: [1440, 10_080],
  normal: [480, 4320],
  high: [120, 1440],
  urgent: [30, 480],
}

export async function benchSla(logger: Logger, opts: { tickets: number; fresh: number }): Promise<SlaBenchResult> {
  const engines = engineUrls()
  const namespace = uniqueId('benchsla')
  const base = tickets.loadConfig({
    INTERNAL_SECRET: randomBytes(24).toString('base64url'),
    LOG_LEVEL: 'warn',
    SLA_MONITOR_ENABLED: 'false',
  })
  const app = await tickets.build(
    {
      ...base,
      port: 0,
      database: { driver: 'postgres', url: engines.databaseUrl, schema: `${namespace}_tickets`, pool_max: 4 },
      cache: { driver: 'redis', url: engines.redisUrl, prefix: `${namespace}:` },
      bus: { driver: 'nats', url: engines.natsUrl, prefix: namespace },
    },
    { logger },
  )
  try {
    await app.ready()
    const svc = tickets.contextOf(app)
    const db = svc.db
    const now = new Date()
    const previous = new Date(now.getTime() - 60_000)

    // ---- bulk load: one INSERT … SELECT per table ----
    const loadStarted = performance.now()
    // The classic bulk load: the secondary indexes of the two big tables (the trigram search ones included) are
    // dropped, the rows written by set-based statements, the indexes built again from their own definitions at
    // the end, so the end state is the migrated one.
    const indexes = (
      await sql<{ name: string; def: string }>`
        select indexname as name, indexdef as def from pg_indexes
        where schemaname = current_schema() and tablename in ('tickets', 'sla_violations')
          and indexname not in ('tickets_pkey', 'sla_violations_pkey')
      `.execute(db)
    ).rows
    for (const ix of indexes) await sql`drop index ${sql.id(ix.name)}`.execute(db)
    const steps: string[] = []
    let stepStarted = performance.now()
    const step = (what: string) => {
      steps.push(`${what} ${fmt((performance.now() - stepStarted) / 1000)} s`)
      stepStarted = performance.now()
    }
    // Tickets arrive over ten days and are stored as they arrive: ids are UUIDv7 (time-ordered, as newId() makes
    // them) and the table is in creation order, like a table that grew by inserts.
    await sql`
      insert into tickets (id, title, description, customer_id, category, priority, status, source, tags,
        custom_fields, tenant_id, workspace_id, created_at, updated_at, first_response_at)
      select substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8' || substr(r, 4, 3) || '-' ||
          substr(r, 7, 12),
        'Bench ticket ' || g, '', 'c-' || (g % ${CUSTOMERS}), 'general',
        (array['low', 'normal', 'high', 'urgent'])[1 + g % 4],
        (array['open', 'assigned', 'in_progress'])[1 + (g / 4) % 3],
        'web', '[]'::jsonb, '{}'::jsonb, 'bench-' || (g % ${TENANTS}), 'main', at, at,
        -- three in ten already answered, five minutes in
        case when g % 10 < 3 then at + interval '5 minutes' end
      from (
        select g, at, lpad(to_hex((extract(epoch from at) * 1000)::bigint), 12, '0') as h, md5(g::text) as r
        from (
          select g, ${now.toISOString()}::timestamptz - random() * interval '10 days' as at
          from generate_series(1, ${opts.tickets}::integer) as g
        ) s
        order by at
      ) o
    `.execute(db)
    step('tickets')
    // customers: eight in ten have a tier from identity, the rest count as normal
    await sql`
      insert into sla_customer_tiers (tenant_id, workspace_id, user_id, tier, name, updated_at)
      select 'bench-' || (c % ${TENANTS}), 'main', 'c-' || c, (array['low', 'normal', 'high', 'urgent'])[1 + (c / 10) % 4],
        'Customer ' || c, now()
      from generate_series(0, ${CUSTOMERS - 1}::integer) as c
      where (c / 10) % 5 <> 4
    `.execute(db)
    // per tenant: a catch-all config per priority, and the urgent tier's for high and urgent; tenant 0 counts
    // business hours (Europe/Berlin, weekdays 09–17), so the pass does business-time arithmetic too
    const configs: Array<Record<string, unknown>> = []
    for (let i = 0; i < TENANTS; i++) {
      for (const [priority, [fr, res]] of Object.entries(TIMES)) {
        const tiers = priority === 'high' || priority === 'urgent' ? ['', 'urgent'] : ['']
        for (const tier of tiers) {
          const f = tier ? 2 : 1
          configs.push({
            id: `cfg-${i}-${priority}-${tier || 'any'}`,
            name: `${priority} ${tier || 'any'}`,
            priority,
            customer_tier: tier,
            tags: '[]',
            warning_threshold: 80,
            first_response_time: fr / f,
            resolution_time: res / f,
            escalation_time: Math.floor(res / f / 2),
            business_hours_only: i === 0,
            active: true,
            tenant_id: `bench-${i}`,
            workspace_id: 'main',
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
        }
      }
    }
    await db
      .insertInto('sla_configs')
      .values(configs as never)
      .execute()
    const weekdays = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]]))
    await db
      .insertInto('sla_business_hours')
      .values({
        tenant_id: 'bench-0',
        workspace_id: 'main',
        time_zone: 'Europe/Berlin',
        weekly: JSON.stringify(weekdays),
        updated_at: now.toISOString(),
      })
      .execute()
    // The previous pass, a minute ago, in three set-based statements: its breaches (the monitor's own query at
    // that time), recorded and marked. Then `fresh` tickets lose theirs: breaches the measured pass must record.
    const rowsThen = matchTable(await activeConfigs(db), await allCalendars(db), previous)
    step('customers, configs')
    await sql`create table bench_breaches as ${breachesQuery('postgres', rowsThen, 100_000_000)}`.execute(db)
    await sql`
      insert into sla_violations (id, ticket_id, sla_config_id, violation_type, priority, customer_tier, deadline,
        violated_at, resolved, tenant_id, workspace_id)
      select md5(b.ticket_id || k.type)::uuid::text, b.ticket_id, b.config_id, k.type, t.priority, b.tier,
        case k.type when 'first_response' then b.fr_deadline else b.res_deadline end,
        ${previous.toISOString()}::timestamptz, false, b.tenant_id, b.workspace_id
      from bench_breaches b
      join tickets t on t.id = b.ticket_id
      cross join (values ('first_response'), ('resolution')) k(type)
      where (k.type = 'first_response' and b.first_response) or (k.type = 'resolution' and b.resolution)
    `.execute(db)
    await sql`
      update tickets t set
        sla_fr_recorded = case when b.first_response then b.config_id end,
        sla_res_recorded = case when b.resolution then b.config_id end
      from bench_breaches b where t.id = b.ticket_id
    `.execute(db)
    await sql`
      create table bench_fresh as
      select ticket_id as id from bench_breaches order by md5(ticket_id) limit ${opts.fresh}
    `.execute(db)
    await sql`delete from sla_violations where ticket_id in (select id from bench_fresh)`.execute(db)
    await sql`
      update tickets set sla_fr_recorded = null, sla_res_recorded = null where id in (select id from bench_fresh)
    `.execute(db)
    step('previous pass')
    for (const ix of indexes) await sql.raw(ix.def).execute(db)
    step('indexes')
    await sql`vacuum analyze`.execute(db)
    step('vacuum')
    const load_s = (performance.now() - loadStarted) / 1000
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('sla_violations')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const violations_before = await count()
    console.log(
      `sla: loaded ${opts.tickets} open tickets, ${configs.length} configs in ${TENANTS} tenants, ` +
        `${violations_before} violations of the previous pass in ${fmt(load_s)} s (${steps.join(', ')})`,
    )

    // ---- the measured pass, as the worker runs it ----
    let started = performance.now()
    const recorded = Number(await svc.workers.runOnce(SLA_MONITOR_WORKER, now))
    const pass_s = (performance.now() - started) / 1000
    const pass_recorded = (await count()) - violations_before
    console.log(
      `sla: monitor pass over ${opts.tickets} open tickets: ${fmt(pass_s, 2)} s (target ≤ 10 s), ` +
        `${pass_recorded} new violations recorded and announced (worker handled ${recorded})`,
    )
    // ---- and the next one, with nothing new: the cost of looking ----
    const steadyBefore = await count()
    started = performance.now()
    await svc.workers.runOnce(SLA_MONITOR_WORKER, new Date(now.getTime() + 1000))
    const steady_pass_s = (performance.now() - started) / 1000
    const steady_recorded = (await count()) - steadyBefore
    console.log(`sla: the next pass (nothing new): ${fmt(steady_pass_s, 2)} s, ${steady_recorded} recorded`)

    // ---- the plan of the breach scan ----
    const rowsNow = matchTable(await activeConfigs(db), await allCalendars(db), now)
    started = performance.now()
    await breachesQuery('postgres', rowsNow, base.sla_monitor_scan_limit).execute(db)
    const scan_s = (performance.now() - started) / 1000
    const explained = await sql<{ 'QUERY PLAN': string }>`
      explain (analyze, buffers, costs off) ${breachesQuery('postgres', rowsNow, base.sla_monitor_scan_limit)}
    `.execute(db)
    const plan = explained.rows.map((r) => r['QUERY PLAN'])
    console.log(`sla: breach scan alone ${fmt(scan_s, 2)} s (${rowsNow.length} match rows); plan:`)
    for (const line of plan) console.log(`    ${line}`)
    return {
      tickets: opts.tickets,
      tenants: TENANTS,
      configs: configs.length,
      match_rows: rowsNow.length,
      load_s,
      violations_before,
      pass_s,
      pass_recorded,
      steady_pass_s,
      steady_recorded,
      scan_s,
      plan,
    }
  } finally {
    await app.close()
    // BENCH_SLA_KEEP=1 leaves the schema for a look at other plans by hand (dropped by `switchboard` namespace cleanup)
    if (process.env.BENCH_SLA_KEEP === '1') console.log(`sla: kept schema ${namespace}_tickets`)
    else await dropNamespace(namespace, engines).catch((err) => console.error('namespace cleanup failed', err))
  }
}
