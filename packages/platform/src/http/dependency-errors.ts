/**
 * A dependency that did not answer — the database, the cache, the bus — is the fleet's failure, not the caller's
 * and not a bug: every unit answers it 503 `DEPENDENCY_TIMEOUT` / `DEPENDENCY_UNAVAILABLE` with `Retry-After`,
 * never 500 (docs/api.md §5). This module recognises those failures by what each client library throws; the error
 * handler (`errors.ts`) answers, logs and counts them.
 */

export type DependencyEngine = 'postgres' | 'sqlite' | 'redis' | 'nats' | 'network'

export interface DependencyFailure {
  /** which engine failed; `network`: a socket error whose engine the error does not say */
  engine: DependencyEngine
  /** `timeout`: it did not answer in time; `unavailable`: it refused, closed or is not serving */
  kind: 'timeout' | 'unavailable'
}

/** What the error body says: the role, never the host, query or the client's own message. */
export const DEPENDENCY_ROLE: Record<DependencyEngine, string> = {
  postgres: 'the database',
  sqlite: 'the database',
  redis: 'the cache',
  nats: 'the event bus',
  network: 'a dependency',
}

const ENGINE = Symbol('switchboard.dependencyEngine')

/**
 * Marks an error as coming from `engine`'s client where the error itself does not say so (a refused socket while
 * the PostgreSQL pool connects). Returns the same error.
 */
export function markDependencyEngine<E>(err: E, engine: DependencyEngine): E {
  if (err && typeof err === 'object' && !Object.hasOwn(err, ENGINE)) {
    Object.defineProperty(err, ENGINE, { value: engine, enumerable: false })
  }
  return err
}

interface Raw {
  name?: unknown
  message?: unknown
  code?: unknown
  errcode?: unknown
  severity?: unknown
  status?: unknown
  cause?: unknown
  [ENGINE]?: DependencyEngine
}

type Recogniser = (e: Raw, message: string) => DependencyFailure['kind'] | undefined

// ioredis: its command timeout (`commandTimeout`), the offline queue given up (`maxRetriesPerRequest`), a closed
// connection; the server's own "not serving now" replies.
const redis: Recogniser = (e, message) => {
  if (message === 'Command timed out') return 'timeout'
  if (e.name === 'MaxRetriesPerRequestError' || message === 'Connection is closed.') return 'unavailable'
  if (message.startsWith("Stream isn't writeable")) return 'unavailable'
  if (e.name === 'ReplyError' && /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN)\b/.test(message)) return 'unavailable'
  return undefined
}

// PostgreSQL's SQLSTATEs (server errors carry `severity`) and pg / pg-pool's own connection errors.
const PG_TIMEOUT_STATES = new Set(['57014', '55P03']) // statement_timeout (query_canceled), lock_timeout
const postgres: Recogniser = (e, message) => {
  if (typeof e.severity === 'string' && typeof e.code === 'string') {
    if (PG_TIMEOUT_STATES.has(e.code)) return 'timeout'
    // connection exceptions, shutdowns, cannot connect now, too many connections / out of resources
    if (/^(08|57P0|53)/.test(e.code)) return 'unavailable'
    return undefined
  }
  if (
    message === 'timeout exceeded when trying to connect' ||
    message === 'Connection terminated due to connection timeout' ||
    message === 'Query read timeout'
  )
    return 'timeout'
  if (
    message === 'Connection terminated unexpectedly' ||
    message === 'Client has encountered a connection error and is not queryable' ||
    message === 'Client was closed and is not queryable'
  )
    return 'unavailable'
  return undefined
}

// node:sqlite: SQLITE_BUSY (5) once busy_timeout ran out, SQLITE_LOCKED (6); extended codes keep the low byte.
const sqlite: Recogniser = (e) => {
  if (e.code !== 'ERR_SQLITE_ERROR' || typeof e.errcode !== 'number') return undefined
  const primary = e.errcode & 0xff
  return primary === 5 || primary === 6 ? 'timeout' : undefined
}

// nats.js (core and JetStream): a closed or draining connection, a request nobody answered or answered late,
// JetStream not available on the server.
const nats: Recogniser = (e, message) => {
  if (e.name === 'TimeoutError' && message === 'timeout') return 'timeout'
  // a request that failed: its cause says how (timeout, no responders), else the connection went away under it
  if (e.name === 'RequestError') return dependencyFailureOf(e.cause)?.kind ?? 'unavailable'
  if (
    e.name === 'ClosedConnectionError' ||
    e.name === 'DrainingConnectionError' ||
    e.name === 'ConnectionError' ||
    e.name === 'NoResponders' ||
    e.name === 'JetStreamNotEnabled'
  )
    return 'unavailable'
  if (e.name === 'JetStreamApiError' && e.status === 503) return 'unavailable'
  return undefined
}

// Socket errors of any client: the engine comes from a mark (markDependencyEngine) or stays unknown.
const NETWORK_TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'])
const NETWORK_DOWN = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
const network: Recogniser = (e) => {
  if (typeof e.code !== 'string') return undefined
  if (NETWORK_TIMEOUT.has(e.code)) return 'timeout'
  return NETWORK_DOWN.has(e.code) ? 'unavailable' : undefined
}

const RECOGNISERS: Array<[DependencyEngine, Recogniser]> = [
  ['redis', redis],
  ['postgres', postgres],
  ['sqlite', sqlite],
  ['nats', nats],
  ['network', network],
]

/**
 * The dependency failure `err` is, or wraps (its `cause` chain, a few levels deep: a RequestError around a
 * TimeoutError, a fetch failure around a refused socket); undefined for anything else.
 */
export function dependencyFailureOf(err: unknown): DependencyFailure | undefined {
  let engine: DependencyEngine | undefined
  let current: unknown = err
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const e = current as Raw
    engine ??= e[ENGINE]
    const message = typeof e.message === 'string' ? e.message : ''
    for (const [which, recognise] of RECOGNISERS) {
      const kind = recognise(e, message)
      if (kind) return { engine: which === 'network' ? (engine ?? 'network') : which, kind }
    }
    current = e.cause
  }
  return undefined
}
