import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { tracingActive } from '@switchboard/events'
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely'

/** Query text kept on a span, at most (a statement with hundreds of placeholders is not worth exporting whole). */
const MAX_STATEMENT = 2000

const tracer = () => trace.getTracer('@switchboard/platform')

/**
 * A CLIENT span per statement a connection executes (pg or SQLite): `db.system.name`, the statement's text (its
 * placeholders, never its values), the rows it touched, its error. Only inside a span (a request, a delivery): the
 * relay's polls and a worker's sweeps outside any trace make none. `BEGIN`/`COMMIT` are statements too, so a
 * transaction shows as what it is.
 */
async function traced<R>(system: string, query: CompiledQuery, run: () => Promise<QueryResult<R>>) {
  const parent = context.active()
  if (!trace.getSpan(parent)?.isRecording()) return run()
  const sqlText = query.sql
  const operation = /^\s*(\w+)/.exec(sqlText)?.[1]?.toUpperCase() ?? 'QUERY'
  const span: Span = tracer().startSpan(
    `${operation} ${system}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': system,
        'db.operation.name': operation,
        'db.query.text': sqlText.length > MAX_STATEMENT ? `${sqlText.slice(0, MAX_STATEMENT)}…` : sqlText,
      },
    },
    parent,
  )
  try {
    const result = await run()
    const rows = result.numAffectedRows ?? BigInt(result.rows.length)
    span.setAttribute('db.response.returned_rows', Number(rows))
    span.end()
    return result
  } catch (err) {
    span.recordException(err as Error)
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message })
    span.end()
    throw err
  }
}

/**
 * The connection as the driver hands it out, its `executeQuery` traced. Its other members are the connection's own,
 * bound to it (pg's and SQLite's connections keep private fields), so the driver gets back what it knows.
 */
function tracedConnection(connection: DatabaseConnection, system: string): DatabaseConnection {
  return new Proxy(connection, {
    get(target, prop) {
      if (prop === 'executeQuery')
        return <R>(query: CompiledQuery) => traced<R>(system, query, () => target.executeQuery<R>(query))
      const value = Reflect.get(target, prop, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** Connections are wrapped as acquired and unwrapped before the driver sees them again. */
function tracedDriver(driver: Driver, system: string): Driver {
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>()
  const unwrap = (c: DatabaseConnection) => inner.get(c) ?? c
  return new Proxy(driver, {
    get(target, prop) {
      if (prop === 'acquireConnection')
        return async () => {
          const connection = await target.acquireConnection()
          const wrapped = tracedConnection(connection, system)
          inner.set(wrapped, connection)
          return wrapped
        }
      const value = Reflect.get(target, prop, target)
      if (typeof value !== 'function') return value
      // every other method takes the connection first (begin/commit/rollback, savepoints, release)
      return (first: unknown, ...rest: unknown[]) =>
        value.call(target, first && typeof first === 'object' ? unwrap(first as DatabaseConnection) : first, ...rest)
    },
  })
}

/** The dialect with a span per query when tracing is on; the dialect itself when off (nothing on the query path). */
export function maybeTracedDialect(dialect: Dialect, system: 'postgresql' | 'sqlite'): Dialect {
  if (!tracingActive()) return dialect
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => tracedDriver(dialect.createDriver(), system),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  }
}
