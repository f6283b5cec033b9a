import { type PageWindow, type Scope, selectPage, type Tx, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import {
  countsOf,
  ON_SHIFT_STATUSES,
  SHIFT_STATUSES,
  SHIFT_TYPES,
  type ShiftSortField,
  scheduleWindow,
  utcDay,
} from '../domain/shift-rules.ts'
import type { Shift, ShiftStats } from '../schemas/shifts.schemas.ts'
import type { ConversationsDatabase, ShiftsTable } from './database.ts'

type Db = Kysely<ConversationsDatabase>

export const toShift = (row: Selectable<ShiftsTable>): Shift => ({
  ...row,
  shift_type: row.shift_type as Shift['shift_type'],
  status: row.status as Shift['status'],
})

export async function insertShift(db: Db, shift: Shift): Promise<void> {
  await db.insertInto('shifts').values(shift).execute()
}

const shiftById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('shifts').selectAll().where('id', '=', id), scope)

/** Scoped: another tenant's shift is not found, like a missing one. */
export async function findShift(db: Db, id: string, scope: Scope): Promise<Shift | undefined> {
  const row = await shiftById(db, id, scope).executeTakeFirst()
  return row ? toShift(row) : undefined
}

/** `findShift`, its row locked until `tx` ends, so an update checks the window it writes. */
export async function findShiftForUpdate(
  tx: Tx<ConversationsDatabase>,
  id: string,
  scope: Scope,
): Promise<Shift | undefined> {
  const row = await tx.forUpdate(shiftById(tx.db, id, scope)).executeTakeFirst()
  return row ? toShift(row) : undefined
}

export async function updateShift(db: Db, id: string, patch: Partial<Shift>): Promise<void> {
  await db.updateTable('shifts').set(patch).where('id', '=', id).execute()
}

export async function deleteShift(db: Db, id: string): Promise<void> {
  await db.deleteFrom('shifts').where('id', '=', id).execute()
}

export interface ShiftFilters {
  agent_id?: string
  shift_type?: string[]
  status?: string[]
  /** start_time ≥ from */
  from?: string
  /** start_time ≤ to, or < to when `to_exclusive` (a date-only bound: the day after it) */
  to?: string
  to_exclusive?: boolean
  sort_by: ShiftSortField
  sort_order: 'asc' | 'desc'
}

/** One page of the scope's shifts; the id breaks ties so pages never overlap. */
export async function listShifts(
  db: Db,
  scope: Scope,
  f: ShiftFilters,
  window: PageWindow,
): Promise<{ rows: Shift[]; total: number }> {
  let q = whereScope(db.selectFrom('shifts'), scope)
  if (f.agent_id) q = q.where('agent_id', '=', f.agent_id)
  if (f.shift_type?.length) q = q.where('shift_type', 'in', f.shift_type)
  if (f.status?.length) q = q.where('status', 'in', f.status)
  if (f.from) q = q.where('start_time', '>=', f.from)
  if (f.to) q = q.where('start_time', f.to_exclusive ? '<' : '<=', f.to)
  const { rows, total } = await selectPage(q, window, (qb) =>
    qb.selectAll().orderBy(f.sort_by, f.sort_order).orderBy('id', f.sort_order),
  )
  return { rows: rows.map(toShift), total }
}

/** The scope's counts (`GET /api/shifts/stats`): four small aggregate queries on the scope's index. */
export async function shiftStats(db: Db, scope: Scope, now: Date): Promise<ShiftStats> {
  const base = whereScope(db.selectFrom('shifts'), scope)
  const nowIso = now.toISOString()
  const day = utcDay(now)
  const [byType, byStatus, upcoming, todayActive] = await Promise.all([
    base
      .select((eb) => ['shift_type as key', eb.fn.countAll<number>().as('n')])
      .groupBy('shift_type')
      .execute(),
    base
      .select((eb) => ['status as key', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute(),
    base
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'scheduled')
      .where('start_time', '>', nowIso)
      .executeTakeFirstOrThrow(),
    base
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'active')
      .where('start_time', '<', day.end)
      .where('end_time', '>', day.start)
      .executeTakeFirstOrThrow(),
  ])
  const by_status = countsOf(SHIFT_STATUSES, byStatus)
  return {
    total: Object.values(by_status).reduce((a, b) => a + b, 0),
    by_type: countsOf(SHIFT_TYPES, byType),
    by_status,
    upcoming: Number(upcoming.n),
    today_active: Number(todayActive.n),
  }
}

/**
 * For routing: whether the scope schedules shifts around `at` (any shift not cancelled overlapping the 24 hours
 * centred on it, see `scheduleWindow`) and which agents (user ids) are on shift at `at`: a scheduled or active
 * shift whose window [start_time, end_time) covers it. When `hasShifts` is false routing should not filter by
 * shift at all. `scope` is the session's own (concrete) scope.
 */
export async function agentsOnShift(
  db: Db,
  scope: Scope,
  at: string,
): Promise<{ hasShifts: boolean; userIds: Set<string> }> {
  const window = scheduleWindow(at)
  const rows = await whereScope(db.selectFrom('shifts'), scope)
    .select(['agent_id', 'status', 'start_time', 'end_time'])
    .where('status', '!=', 'cancelled')
    .where('start_time', '<', window.end)
    .where('end_time', '>', window.start)
    .execute()
  const userIds = new Set<string>()
  const atMs = Date.parse(at)
  for (const r of rows) {
    const covers = Date.parse(r.start_time) <= atMs && atMs < Date.parse(r.end_time)
    if (covers && (ON_SHIFT_STATUSES as readonly string[]).includes(r.status)) userIds.add(r.agent_id)
  }
  return { hasShifts: rows.length > 0, userIds }
}
