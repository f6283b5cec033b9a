import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { tracingActive } from '@switchboard/events'
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely'

/** Query text kept on a span, at most (a statement with hundreds of placeholders is not worth exporting whole). */
const MAX_STATEMENT = 2000

const tracer = () => trace.getTracer('@switchboard/platform')

/**
 * A CLIENT span per statement a connection executes (pg or SQLite): `db.system.name`, the statement's text (its
 * placeholders, never its values), the rows it touched, its error. Only inside a sampled span (a request, a
 * delivery): under a trace that is not sampled, or outside any (the relay's polls, a worker's sweeps), a statement
 * pays one look at the active context and runs as it would untraced. `BEGIN`/`COMMIT` are statements too, so a
 * transaction shows as what it is.
 */
class TracedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection
  readonly system: string
  constructor(inner: DatabaseConnection, system: string) {
    this.inner = inner
    this.system = system
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const parent = context.active()
    if (!trace.getSpan(parent)?.isRecording()) return this.inner.executeQuery<R>(query)
    return this.#traced<R>(query, parent)
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize)
  }

  async #traced<R>(query: CompiledQuery, parent: Context): Promise<QueryResult<R>> {
    const sqlText = query.sql
    const operation = /^\s*(\w+)/.exec(sqlText)?.[1]?.toUpperCase() ?? 'QUERY'
    const span: Span = tracer().startSpan(
      `${operation} ${this.system}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': this.system,
          'db.operation.name': operation,
          'db.query.text': sqlText.length > MAX_STATEMENT ? `${sqlText.slice(0, MAX_STATEMENT)}…` : sqlText,
        },
      },
      parent,
    )
    try {
      const result = await this.inner.executeQuery<R>(query)
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
}

/**
 * The driver handing out each connection in a traced wrapper, made once per connection (not per acquire), and
 * unwrapped when it is released: the driver releases its own object (pg's connection keeps private members).
 * Transactions and savepoints take the wrapper, so their statements are traced like any other.
 */
function tracedDriver(driver: Driver, system: string): Driver {
  const wrappers = new WeakMap<DatabaseConnection, TracedConnection>()
  const out: Driver = {
    init: () => driver.init(),
    async acquireConnection() {
      const connection = await driver.acquireConnection()
      let wrapped = wrappers.get(connection)
      if (wrapped === undefined) {
        wrapped = new TracedConnection(connection, system)
        wrappers.set(connection, wrapped)
      }
      return wrapped
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    releaseConnection: (connection) =>
      driver.releaseConnection(connection instanceof TracedConnection ? connection.inner : connection),
    destroy: () => driver.destroy(),
  }
  if (driver.savepoint) out.savepoint = driver.savepoint.bind(driver)
  if (driver.rollbackToSavepoint) out.rollbackToSavepoint = driver.rollbackToSavepoint.bind(driver)
  if (driver.releaseSavepoint) out.releaseSavepoint = driver.releaseSavepoint.bind(driver)
  return out
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
