import createError from '@fastify/error'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { Counter } from 'prom-client'
import type { AnyApp } from './app.ts'
import { DEPENDENCY_ROLE, type DependencyFailure, dependencyFailureOf } from './dependency-errors.ts'

/** Short labels of the error body, by status (docs/api.md §5). */
const LABELS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
}
export const errorLabel = (status: number) => LABELS[status] ?? (status >= 500 ? 'internal' : 'bad_request')

/** Errors every service shares; a service's own catalog lives in its `src/errors.ts`. */
export const CommonErrors = {
  NotFound: createError('NOT_FOUND', '%s not found', 404),
  BadRequest: createError('BAD_REQUEST', '%s', 400),
  Unauthorized: createError('UNAUTHORIZED', '%s', 401),
  Forbidden: createError('FORBIDDEN', '%s', 403),
  Conflict: createError('CONFLICT', '%s', 409),
  Unavailable: createError('DEPENDENCY_UNAVAILABLE', '%s', 503),
  NulByte: createError('NUL_BYTE', '%s', 400),
  NotFinite: createError('VALIDATION_FAILED', '%s', 400),
  BadInput: createError('VALIDATION_FAILED', '%s', 400),
  PrincipalMissing: createError('PRINCIPAL_REQUIRED', 'request did not come through the gateway', 401),
}

export { createError }

interface Classified {
  status: number
  code: string
  message: string
  /** set when the error is a dependency that did not answer (503, `Retry-After`, logged at warn) */
  dependency?: DependencyFailure
}

/** Seconds a client waits before retrying after a dependency failed: long enough for a reconnect or a fail-over. */
const DEPENDENCY_RETRY_AFTER_S = '1'

/** Fastify's own error codes, mapped to the documented statuses and stable codes. */
function classify(err: FastifyError): Classified {
  if (err.validation) {
    const first = err.validation[0]
    const field =
      (first?.instancePath || '').replace(/^\//, '').replaceAll('/', '.') ||
      ((first?.params as { missingProperty?: string } | undefined)?.missingProperty ?? '')
    const where = err.validationContext ?? 'request'
    const message = field
      ? `${where}.${field}: ${first?.message ?? 'invalid'}`
      : `${where}: ${first?.message ?? 'invalid'}`
    return { status: 400, code: 'VALIDATION_FAILED', message }
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'BODY_TOO_LARGE', message: 'request body is too large' }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content type' }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        code: 'EMPTY_BODY',
        message: 'body must not be empty when content-type is application/json',
      }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'INVALID_JSON', message: 'body is not valid JSON' }
  }
  if (err instanceof SyntaxError) return { status: 400, code: 'INVALID_JSON', message: 'body is not valid JSON' }
  if (isUniqueViolation(err))
    return { status: 409, code: 'CONFLICT', message: 'a record with the same key already exists' }
  const explicit = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
  if (explicit === 500) {
    // A database, cache or bus that did not answer is the fleet's failure, never a bare 500 (docs/api.md §5).
    const dependency = dependencyFailureOf(err)
    if (dependency) {
      const timeout = dependency.kind === 'timeout'
      return {
        status: 503,
        code: timeout ? 'DEPENDENCY_TIMEOUT' : 'DEPENDENCY_UNAVAILABLE',
        message: `${DEPENDENCY_ROLE[dependency.engine]} ${timeout ? 'did not answer in time' : 'is unavailable'}; try again`,
        dependency,
      }
    }
    // A 500 is always an unexpected failure: its message may carry internals, so the body never repeats it.
    return { status: 500, code: 'INTERNAL', message: 'internal error' }
  }
  const code = err.code && !err.code.startsWith('FST_') ? err.code : errorLabel(explicit).toUpperCase()
  return { status: explicit, code, message: err.message }
}

/** Unique-key races the handler did not pre-check are conflicts, not server errors (PostgreSQL 23505, SQLite). */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errcode?: string; message?: string }
  return e.code === '23505' || (typeof e.message === 'string' && e.message.startsWith('UNIQUE constraint failed'))
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ error: errorLabel(status), message, code, request_id: String(reply.request.id) })
}

/**
 * The one error handler: documented body, 5xx logged with context, internals never leaked. A dependency that did
 * not answer is a 503 with `Retry-After`, logged at warn with its cause and counted as
 * `errors_total{severity="warn",category="dependency",module=<engine>}`.
 */
export function installErrorHandling(app: AnyApp, errorsTotal?: Counter<'severity' | 'category' | 'module'>) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, code, message, dependency } = classify(err)
    if (dependency) {
      request.log.warn({ err, dependency, route: request.routeOptions.url }, 'dependency failed')
      errorsTotal?.inc({ severity: 'warn', category: 'dependency', module: dependency.engine })
    } else if (status >= 500) {
      request.log.error({ err, route: request.routeOptions.url }, 'request failed')
      errorsTotal?.inc({ severity: 'error', category: status === 500 ? 'system' : 'dependency', module: 'http' })
    } else if (status !== 404) {
      errorsTotal?.inc({ severity: 'warn', category: 'client', module: 'http' })
    }
    if (status === 429 && !reply.getHeader('retry-after')) reply.header('retry-after', '1')
    // a service's own 503 for a dependency (CommonErrors.Unavailable) says when to retry like the recognised ones
    if (status === 503 && code.startsWith('DEPENDENCY_') && !reply.getHeader('retry-after'))
      reply.header('retry-after', DEPENDENCY_RETRY_AFTER_S)
    return sendError(reply, status, code, message)
  })
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'ROUTE_NOT_FOUND', `route ${request.method} ${request.url.split('?')[0]} not found`),
  )
}
