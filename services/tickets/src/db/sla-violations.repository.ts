import { type PageWindow, type Scope, selectPage, toBool, whereScope } from '@switchboard/platform'
import type { Insertable, Kysely, Selectable } from 'kysely'
import type { ViolationType } from '../domain/sla-rules.ts'
import type { SlaViolation } from '../schemas/sla.schemas.ts'
import type { SlaViolationsTable, TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

export function toViolation(row: Selectable<SlaViolationsTable>): SlaViolation {
  return { ...row, violation_type: row.violation_type as ViolationType, resolved: toBool(row.resolved) }
}

/**
 * Records violations once each: the unique (ticket, config, type) key decides between monitor passes, replicas
 * and a late answer racing the monitor. Answers only the rows this call inserted, so each is announced once.
 */
export async function insertViolations(db: Db, rows: SlaViolation[]): Promise<SlaViolation[]> {
  const out: SlaViolation[] = []
  // 12 parameters a row: 1000 rows stay under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters
  for (let i = 0; i < rows.length; i += 1000) {
    const values: Insertable<SlaViolationsTable>[] = rows.slice(i, i + 1000)
    const inserted = await db
      .insertInto('sla_violations')
      .values(values)
      .onConflict((oc) => oc.columns(['ticket_id', 'sla_config_id', 'violation_type']).doNothing())
      .returningAll()
      .execute()
    out.push(...inserted.map(toViolation))
  }
  return out
}

/** Marks a ticket's open violations (of `types`) resolved at `at`: it was answered, resolved or closed. */
export async function resolveOpenViolations(
  db: Db,
  ticketId: string,
  types: readonly ViolationType[],
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('sla_violations')
    .set({ resolved: true, resolved_at: at })
    .where('ticket_id', '=', ticketId)
    .where('resolved', '=', false)
    .where('violation_type', 'in', types)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function findViolation(db: Db, id: string, scope: Scope): Promise<SlaViolation | undefined> {
  const row = await whereScope(
    db.selectFrom('sla_violations').selectAll().where('id', '=', id),
    scope,
  ).executeTakeFirst()
  return row ? toViolation(row) : undefined
}

/** A ticket's recorded violation of one type under one config, if any. */
export async function violationOf(db: Db, ticketId: string, configId: string, type: ViolationType) {
  const row = await db
    .selectFrom('sla_violations')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .where('sla_config_id', '=', configId)
    .where('violation_type', '=', type)
    .executeTakeFirst()
  return row ? toViolation(row) : undefined
}

export async function markResolved(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('sla_violations')
    .set({ resolved: true, resolved_at: at })
    .where('id', '=', id)
    .where('resolved', '=', false)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export interface ViolationFilters {
  ticket_id?: string
  sla_config_id?: string
  violation_type?: string
  resolved?: boolean
  /** violated_at ≥ from and < to (ISO instants) */
  from?: string
  to?: string
}

export async function listViolations(db: Db, scope: Scope, f: ViolationFilters, window: PageWindow) {
  let q = whereScope(db.selectFrom('sla_violations'), scope)
  if (f.ticket_id) q = q.where('ticket_id', '=', f.ticket_id)
  if (f.sla_config_id) q = q.where('sla_config_id', '=', f.sla_config_id)
  if (f.violation_type) q = q.where('violation_type', '=', f.violation_type)
  if (f.resolved !== undefined) q = q.where('resolved', '=', f.resolved)
  if (f.from) q = q.where('violated_at', '>=', f.from)
  if (f.to) q = q.where('violated_at', '<', f.to)
  const { rows, total } = await selectPage(q, window, (qb) =>
    qb.selectAll().orderBy('violated_at', 'desc').orderBy('id', 'desc'),
  )
  return { rows: rows.map(toViolation), total }
}
