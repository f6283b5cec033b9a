import { type Compilable, type CompiledQuery, createQueryId, type Kysely, type QueryResult } from 'kysely'

/**
 * A hot statement built with Kysely's builder (its types and its dialect's SQL) once, then run again with new
 * values instead of building and compiling the whole tree on every call (the agent message's statement: ~5 % of
 * conversations' CPU per message was that work). `build` receives a marker in place of each value; the markers'
 * positions among the compiled parameters are found once, and every run puts the real values there.
 *
 * Rules for `build`: every value goes in as a bound parameter (`val`, a `where` right-hand side, `set` values) and
 * unchanged (no transformation of the marker: serialise JSON before); anything that changes the SQL's shape (which
 * conditions there are, which values are given) is the `shape` key: each shape is compiled once, from the values'
 * keys of its first run, and every run of it gives the same keys. The database's plugins still see
 * every run (their `transformQuery`, e.g. the query counter, and `transformResult`).
 */
export function prebuilt<Values extends Record<string, unknown>, Row>(
  build: (db: Kysely<any>, v: Values) => Compilable<Row>,
) {
  const compiled = new Map<string, { query: CompiledQuery<Row>; slots: Array<{ key: string } | { fixed: unknown }> }>()
  const compile = (db: Kysely<any>, keys: string[], shape: string) => {
    const markers = Object.fromEntries(keys.map((k) => [k, `\u0000${k}\u0000`])) as Values
    const query = build(db, markers).compile()
    const slots = query.parameters.map((p) => {
      const key = typeof p === 'string' && p.startsWith('\u0000') && p.endsWith('\u0000') ? p.slice(1, -1) : undefined
      return key !== undefined && key in markers ? { key } : { fixed: p }
    })
    const entry = { query, slots }
    compiled.set(shape, entry)
    return entry
  }
  return function run(db: Kysely<any>, values: Values, shape = ''): Promise<QueryResult<Row>> {
    const executor = db.getExecutor()
    // the SQL is the dialect's: one process may hold a PostgreSQL and a SQLite database (the tests' two modes)
    const key = `${executor.adapter.constructor.name}:${shape}`
    let entry = compiled.get(key)
    const parameters = (e: NonNullable<typeof entry>) => e.slots.map((s) => ('key' in s ? values[s.key] : s.fixed))
    if (!entry) {
      // compiling went through the plugins (as building does), so this run is already theirs
      entry = compile(db, Object.keys(values), key)
      return db.executeQuery<Row>({ ...entry.query, parameters: parameters(entry) })
    }
    const queryId = createQueryId()
    // the plugins' view of the statement, as a built one gets (the counter of db_queries_total)
    const query = executor.transformQuery(entry.query.query, queryId)
    return db.executeQuery<Row>({ ...entry.query, query, queryId, parameters: parameters(entry) })
  }
}
