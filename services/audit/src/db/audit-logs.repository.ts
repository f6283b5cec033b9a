import { fromJson, type PageWindow, type Scope, selectPage, toBool, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { DateRange } from '../domain/date-range.ts'
import type { AuditLog } from '../schemas/audit.schemas.ts'
import type { AuditDatabase, AuditLogsTable } from './database.ts'

type Db = Kysely<AuditDatabase>

export interface AuditFilters {
  action?: string
  resource?: string
  principal?: string
  actor?: string
  success?: boolean
  range: DateRange
}

export const toAuditLog = (row: Selectable<AuditLogsTable>): AuditLog => ({
  ...row,
  success: toBool(row.success),
  sanitised: toBool(row.sanitised),
  request_json: fromJson(row.request_json, null),
  before_json: fromJson(row.before_json, null),
  after_json: fromJson(row.after_json, null),
})

/** The row of a record as the table takes it. */
export const auditLogRow = (record: AuditLog) => ({
  ...record,
  sanitised: record.sanitised === true,
  request_json: toJson(record.request_json),
  before_json: toJson(record.before_json),
  after_json: toJson(record.after_json),
})

/** Inserts unless a record of the same event exists; true when a row was written. */
export async function insertAuditLog(db: Db, record: AuditLog): Promise<boolean> {
  const result = await db
    .insertInto('audit_logs')
    .values(auditLogRow(record))
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** Scoped: a record of another tenant or workspace is not found, like a missing one. */
export async function findAuditLog(db: Db, id: string, scope: Scope): Promise<AuditLog | undefined> {
  const row = await whereScope(db.selectFrom('audit_logs').selectAll().where('id', '=', id), scope).executeTakeFirst()
  return row ? toAuditLog(row) : undefined
}

/** The filters and the scope, without columns or order: what the list counts and pages, and the export reads. */
function filtered(db: Db, scope: Scope, f: AuditFilters) {
  let q = whereScope(db.selectFrom('audit_logs'), scope)
  if (f.action) q = q.where('action', '=', f.action)
  if (f.resource) q = q.where('resource_type', '=', f.resource)
  if (f.principal) q = q.where('principal_kind', '=', f.principal)
  if (f.actor) q = q.where('actor_user_id', '=', f.actor)
  if (f.success !== undefined) q = q.where('success', '=', f.success)
  if (f.range.start) q = q.where('created_at', '>=', f.range.start)
  if (f.range.end) q = q.where('created_at', f.range.end.inclusive ? '<=' : '<', f.range.end.at)
  return q
}

/** Newest first (ties by id, so pages never overlap), one page of it and the filtered total. */
export async function listAuditLogs(
  db: Db,
  scope: Scope,
  f: AuditFilters,
  window: Pick<PageWindow, 'offset' | 'limit'>,
): Promise<{ rows: AuditLog[]; total: number }> {
  const { rows, total } = await selectPage(filtered(db, scope, f), window, (qb) =>
    qb.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  )
  return { rows: rows.map(toAuditLog), total }
}

/** Newest first, at most `limit` rows (the caller caps it). */
export async function exportAuditLogs(db: Db, scope: Scope, f: AuditFilters, limit: number): Promise<AuditLog[]> {
  const rows = await filtered(db, scope, f)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toAuditLog)
}

/**
 * Deletes up to `batch` records created strictly before `cutoff`; returns how many. The sub-select keeps
 * each statement short on both engines (neither DELETE … LIMIT nor ctid is portable).
 */
export async function deleteBatchBefore(db: Db, cutoff: string, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_logs')
    .where('id', 'in', (eb) =>
      eb.selectFrom('audit_logs').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(batch),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
