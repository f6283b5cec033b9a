import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

// node:sqlite is built into Node 24, so the embedded mode needs no native addon (better-sqlite3 would have
// to be compiled against Node 24's headers on every fresh machine). Kysely's SqliteDialect expects the
// better-sqlite3 shape; this adapter is the few lines between the two.

const toParam = (v: unknown): unknown => {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (v instanceof Date) return v.toISOString()
  if (v === undefined) return null
  return v
}

function statement(st: StatementSync): SqliteStatement {
  const reader = st.columns().length > 0
  return {
    reader,
    all: (params) => st.all(...(params.map(toParam) as never[])),
    run: (params) => {
      const r = st.run(...(params.map(toParam) as never[]))
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid }
    },
    iterate: (params) => st.iterate(...(params.map(toParam) as never[])) as IterableIterator<unknown>,
  }
}

export function openSqlite(file: string): SqliteDatabase & { raw: DatabaseSync } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const raw = new DatabaseSync(file)
  raw.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;',
  )
  return {
    raw,
    close: () => raw.close(),
    prepare: (sql: string) => statement(raw.prepare(sql)),
  }
}
