import { type Kysely, PostgresAdapter } from 'kysely'
import type { Dialect } from './database.ts'

/** Timestamps travel and are stored as RFC 3339 UTC strings on both engines. */
export const nowIso = () => new Date().toISOString()

/** JSON columns: jsonb on PostgreSQL, text on SQLite; written as text, read back as values. */
export const toJson = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value)
export function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T
    } catch {
      return fallback
    }
  }
  return value as T
}

/** Booleans: boolean on PostgreSQL, 0/1 on SQLite. */
export const toBool = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 't'

/** Column types for migrations written once for both engines. */
export function columnTypes(dialect: Dialect) {
  return dialect === 'postgres'
    ? ({ timestamp: 'timestamptz', json: 'jsonb', bool: 'boolean', text: 'text', bigint: 'bigint' } as const)
    : ({ timestamp: 'text', json: 'text', bool: 'integer', text: 'text', bigint: 'integer' } as const)
}

/** Case-insensitive substring match, engine-specific operator. */
export const likeOperator = (dialect: Dialect) => (dialect === 'postgres' ? 'ilike' : 'like')

/** The engine behind a Kysely instance, for migrations that must pick column types. */
export const dialectOf = (db: Kysely<any>): Dialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
