import { type DatabaseIntrospector, type Kysely, sql } from 'kysely'

/**
 * Kysely's migrator looks for its ledger tables with `introspection.getTables()`, which on PostgreSQL reads every
 * schema of the database and resolves each serial column's sequence by name: a schema someone else drops at that
 * instant (another service's namespace, a finished test file) fails the query with 3F000. The ledger only lives in
 * this service's schema, so only that schema is listed.
 */
export function withLedgerIntrospection(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getMetadata: (options) => db.introspection.getMetadata(options),
    async getTables() {
      const { rows } = await sql<{ name: string; is_view: boolean }>`
        select c.relname as name, c.relkind = 'v' as is_view
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db)
      return rows.map((r) => ({ name: r.name, schema, isView: r.is_view, columns: [] }))
    },
  }
  // Kysely keeps its state in private fields: every other member is the instance's own, bound to it.
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
