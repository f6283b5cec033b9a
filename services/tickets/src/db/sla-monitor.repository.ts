import type { Dialect } from '@switchboard/platform'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { MatchRow } from '../domain/sla-match.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

/** An open ticket past a deadline of the config that matches it, with what is newly breached. */
export interface Breach {
  ticket_id: string
  tenant_id: string
  workspace_id: string
  created_at: string
  config_id: string
  /** the customer's tier the ticket was matched by */
  tier: string
  first_response: boolean | number
  resolution: boolean | number
  /** wall-clock deadlines (created_at + minutes); the caller recomputes them for business-hours configs */
  fr_deadline: string
  res_deadline: string
}

// Rows per statement: 9 parameters each, well under both engines' bound-parameter limits.
export const MATCH_CHUNK = 500

function matchValues(dialect: Dialect, rows: readonly MatchRow[]): RawBuilder<unknown> {
  const pg = dialect === 'postgres'
  const ts = (v: string) => (pg ? sql`${v}::timestamptz` : sql`${v}`)
  const int = (v: number) => (pg ? sql`${v}::integer` : sql`${v}`)
  return sql.join(
    rows.map(
      (r) =>
        sql`(${r.tenant_id}, ${r.workspace_id}, ${r.priority}, ${r.tier}, ${r.config_id}, ${ts(r.fr_cutoff)}, ${ts(r.res_cutoff)}, ${int(r.fr_minutes)}, ${int(r.res_minutes)})`,
    ),
  )
}

const plus = (dialect: Dialect, minutes: RawBuilder<unknown>) =>
  dialect === 'postgres'
    ? sql`t.created_at + make_interval(mins => ${minutes})`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', t.created_at, '+' || ${minutes} || ' minutes')`

/**
 * The monitor's one statement for every scope and config in `rows` (the match table: scope, priority and customer
 * tier → config and cutoffs): open tickets joined to their customer's tier and to the match table, past a cutoff
 * for a kind of breach not yet marked recorded under that config. A scan of open tickets with two hash joins; the
 * marks (`sla_fr_recorded`, `sla_res_recorded`) make a recorded breach cost a comparison, not a look-up.
 */
export function breachesQuery(dialect: Dialect, rows: readonly MatchRow[], limit: number): RawBuilder<Breach> {
  const frDue = sql`t.first_response_at is null and t.created_at < e.fr_cutoff and (t.sla_fr_recorded is null or t.sla_fr_recorded <> e.config_id)`
  const resDue = sql`t.created_at < e.res_cutoff and (t.sla_res_recorded is null or t.sla_res_recorded <> e.config_id)`
  return sql<Breach>`
    with e (tenant_id, workspace_id, priority, tier, config_id, fr_cutoff, res_cutoff, fr_minutes, res_minutes) as (
      values ${matchValues(dialect, rows)}
    )
    select t.id as ticket_id, t.tenant_id, t.workspace_id, t.created_at, e.config_id, e.tier,
      (${frDue}) as first_response, (${resDue}) as resolution,
      ${plus(dialect, sql`e.fr_minutes`)} as fr_deadline, ${plus(dialect, sql`e.res_minutes`)} as res_deadline
    from tickets t
    left join sla_customer_tiers c
      on c.tenant_id = t.tenant_id and c.workspace_id = t.workspace_id and c.user_id = t.customer_id
    join e
      on e.tenant_id = t.tenant_id and e.workspace_id = t.workspace_id and e.priority = t.priority
      and e.tier = coalesce(c.tier, 'normal')
    where t.status in ('open', 'assigned', 'in_progress') and ((${frDue}) or (${resDue}))
    limit ${limit}
  `
}

export async function findBreaches(db: Db, dialect: Dialect, rows: readonly MatchRow[], limit: number) {
  if (rows.length === 0) return []
  return (await breachesQuery(dialect, rows, limit).execute(db)).rows
}

export interface Mark {
  ticket_id: string
  config_id: string
  first_response: boolean
  resolution: boolean
}

/**
 * Marks breaches recorded on tickets that are still open, and answers those tickets with their first response
 * as it stands now. On PostgreSQL the update waits for a concurrent close or answer and re-reads the row, so a
 * breach is never recorded open for a ticket that was closed meanwhile; SQLite's single writer serialises.
 */
export async function markOpenTickets(
  db: Db,
  dialect: Dialect,
  marks: readonly Mark[],
): Promise<Array<{ id: string; first_response_at: string | null }>> {
  const out: Array<{ id: string; first_response_at: string | null }> = []
  const pg = dialect === 'postgres'
  const bool = (b: boolean) => (pg ? sql`${b}::boolean` : sql`${b ? 1 : 0}`)
  for (let i = 0; i < marks.length; i += 1000) {
    const values = sql.join(
      marks
        .slice(i, i + 1000)
        .map((m) => sql`(${m.ticket_id}, ${m.config_id}, ${bool(m.first_response)}, ${bool(m.resolution)})`),
    )
    const result = await sql<{ id: string; first_response_at: string | null }>`
      with m (id, config_id, fr, res) as (values ${values})
      update tickets
      set sla_fr_recorded = case when m.fr then m.config_id else tickets.sla_fr_recorded end,
        sla_res_recorded = case when m.res then m.config_id else tickets.sla_res_recorded end
      from m
      where tickets.id = m.id and tickets.status in ('open', 'assigned', 'in_progress')
      returning tickets.id, tickets.first_response_at
    `.execute(db)
    out.push(...result.rows)
  }
  return out
}

/** The same marks for breaches recorded by a ticket's own write (late answer, resolve, close, check). */
export async function markRecorded(db: Db, ticketId: string, configId: string, types: readonly string[]) {
  await db
    .updateTable('tickets')
    .set({
      ...(types.includes('first_response') ? { sla_fr_recorded: configId } : {}),
      ...(types.includes('resolution') ? { sla_res_recorded: configId } : {}),
    })
    .where('id', '=', ticketId)
    .execute()
}
