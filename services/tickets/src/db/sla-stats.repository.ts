import type { Dialect, Scope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

/** The UTC day of a timestamp column, on either engine. */
export const utcDay = (dialect: Dialect, column: string) =>
  dialect === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`

const rate = (total: number, violated: number) => (total === 0 ? 100 : ((total - violated) / total) * 100)
const scoped = <QB extends { where: (...a: any[]) => QB }>(qb: QB, scope: Scope, table: string) => {
  let q = qb
  if (scope.tenant_id) q = q.where(`${table}.tenant_id`, '=', scope.tenant_id)
  if (scope.workspace_id) q = q.where(`${table}.workspace_id`, '=', scope.workspace_id)
  return q
}

async function countsBy(db: Db, scope: Scope, column: 'violation_type' | 'priority' | 'customer_tier') {
  const rows = await scoped(db.selectFrom('sla_violations'), scope, 'sla_violations')
    .select([column, (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(column)
    .execute()
  return Object.fromEntries(rows.map((r) => [(r as Record<string, unknown>)[column] as string, Number(r.n)]))
}

export async function slaStats(db: Db, dialect: Dialect, scope: Scope, since: string) {
  const [configs, violations, byType, byPriority, byTier, tickets, trend] = await Promise.all([
    scoped(db.selectFrom('sla_configs'), scope, 'sla_configs')
      .select([
        (eb) => eb.fn.countAll<number>().as('total'),
        (eb) => eb.fn.sum<number>(eb.case().when('active', '=', true).then(1).else(0).end()).as('active'),
      ])
      .executeTakeFirstOrThrow(),
    scoped(db.selectFrom('sla_violations'), scope, 'sla_violations')
      .select([
        (eb) => eb.fn.countAll<number>().as('total'),
        (eb) => eb.fn.sum<number>(eb.case().when('resolved', '=', false).then(1).else(0).end()).as('open'),
      ])
      .executeTakeFirstOrThrow(),
    countsBy(db, scope, 'violation_type'),
    countsBy(db, scope, 'priority'),
    countsBy(db, scope, 'customer_tier'),
    scoped(db.selectFrom('tickets'), scope, 'tickets')
      .select([
        (eb) => eb.fn.countAll<number>().as('total'),
        (eb) =>
          eb.fn
            .countAll<number>()
            .filterWhere((w) =>
              w.exists(
                w
                  .selectFrom('sla_violations')
                  .select(sql`1`.as('x'))
                  .whereRef('sla_violations.ticket_id', '=', 'tickets.id'),
              ),
            )
            .as('violated'),
      ])
      .executeTakeFirstOrThrow(),
    scoped(db.selectFrom('tickets'), scope, 'tickets')
      .where('tickets.created_at', '>=', since)
      .select([
        utcDay(dialect, 'tickets.created_at').as('date'),
        (eb) => eb.fn.countAll<number>().as('total'),
        (eb) =>
          eb.fn
            .countAll<number>()
            .filterWhere((w) =>
              w.exists(
                w
                  .selectFrom('sla_violations')
                  .select(sql`1`.as('x'))
                  .whereRef('sla_violations.ticket_id', '=', 'tickets.id'),
              ),
            )
            .as('violated'),
      ])
      .groupBy(utcDay(dialect, 'tickets.created_at'))
      .execute(),
  ])
  return {
    total_configs: Number(configs.total),
    active_configs: Number(configs.active ?? 0),
    total_violations: Number(violations.total),
    unresolved_violations: Number(violations.open ?? 0),
    violations_by_type: byType,
    violations_by_priority: byPriority,
    violations_by_tier: byTier,
    compliance_rate: rate(Number(tickets.total), Number(tickets.violated)),
    trend: new Map(trend.map((r) => [r.date, { total: Number(r.total), violated: Number(r.violated) }])),
  }
}

export { rate as complianceRate }
