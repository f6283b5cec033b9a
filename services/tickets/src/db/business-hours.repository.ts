import { fromJson, type Scope, toJson } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { type Calendar, DEFAULT_CALENDAR, type WeeklyHours } from '../domain/business-hours.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

export interface StoredCalendar extends Calendar {
  updated_at: string | null
  is_default: boolean
}

const scopeKey = (s: Scope) => `${s.tenant_id}\u0000${s.workspace_id}`

/** A scope's calendar, or the default one (Mon–Fri 09:00–17:00 UTC) when it never set its own. */
export async function findCalendar(db: Db, scope: Scope): Promise<StoredCalendar> {
  const row = await db
    .selectFrom('sla_business_hours')
    .selectAll()
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .executeTakeFirst()
  if (!row) return { ...DEFAULT_CALENDAR, updated_at: null, is_default: true }
  return {
    time_zone: row.time_zone,
    weekly: fromJson<WeeklyHours>(row.weekly, {}),
    updated_at: row.updated_at,
    is_default: false,
  }
}

/** Every scope's own calendar, keyed by scope, for a monitor pass; scopes absent use the default. */
export async function allCalendars(db: Db): Promise<(scope: Scope) => Calendar> {
  const rows = await db.selectFrom('sla_business_hours').selectAll().execute()
  const byScope = new Map<string, Calendar>(
    rows.map((r) => [scopeKey(r), { time_zone: r.time_zone, weekly: fromJson<WeeklyHours>(r.weekly, {}) }]),
  )
  return (scope) => byScope.get(scopeKey(scope)) ?? DEFAULT_CALENDAR
}

export async function upsertCalendar(db: Db, scope: Scope, cal: Calendar, now: string): Promise<void> {
  const values = { ...scope, time_zone: cal.time_zone, weekly: toJson(cal.weekly)!, updated_at: now }
  await db
    .insertInto('sla_business_hours')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'workspace_id'])
        .doUpdateSet({ time_zone: values.time_zone, weekly: values.weekly, updated_at: now }),
    )
    .execute()
}
