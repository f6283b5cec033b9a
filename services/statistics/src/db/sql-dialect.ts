import type { Dialect } from '@switchboard/platform'
import { type RawBuilder, sql } from 'kysely'

// The two expressions that differ by engine: timestamps are timestamptz on PostgreSQL and ISO text on SQLite.

/** `to − from` in seconds. */
export function secondsBetween(dialect: Dialect, from: string, to: string): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`extract(epoch from (${sql.ref(to)} - ${sql.ref(from)}))`
    : sql<number>`((julianday(${sql.ref(to)}) - julianday(${sql.ref(from)})) * 86400.0)`
}

/** The UTC day (`YYYY-MM-DD`) of a timestamp column. */
export function utcDay(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`
}

/** The UTC quarter hour (`YYYY-MM-DDTHH:MM`, minutes 00/15/30/45) of a timestamp column: a zone's days are whole ones. */
export function utcQuarterHour(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(date_trunc('hour', ${sql.ref(column)} at time zone 'UTC') + floor(extract(minute from ${sql.ref(column)} at time zone 'UTC') / 15) * interval '15 minutes', 'YYYY-MM-DD"T"HH24:MI')`
    : sql<string>`(substr(${sql.ref(column)}, 1, 14) || printf('%02d', (cast(substr(${sql.ref(column)}, 15, 2) as integer) / 15) * 15))`
}
