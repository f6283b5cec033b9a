import type { AnyApp } from './app.ts'
import { CommonErrors } from './errors.ts'

/** As deep as a body may nest (the gateway refuses deeper ones first; internal callers reach services directly). */
export const MAX_INPUT_DEPTH = 64

type Problem = { path: string; kind: 'nul' | 'unpaired' | 'deep' }

function textProblem(text: string, path: string): Problem | undefined {
  if (text.includes('\u0000')) return { path, kind: 'nul' }
  // a lone surrogate can't be stored as UTF-8: PostgreSQL refuses it (500), SQLite would keep it
  if (!text.isWellFormed()) return { path, kind: 'unpaired' }
  return undefined
}

/** The first string (or key) a database could not store faithfully, or a nesting past MAX_INPUT_DEPTH. */
export function inputProblem(value: unknown, path: string, depth = 0): Problem | undefined {
  if (typeof value === 'string') return textProblem(value, path)
  if (value === null || typeof value !== 'object') return undefined
  if (depth >= MAX_INPUT_DEPTH) return { path, kind: 'deep' }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inputProblem(value[i], `${path}.${i}`, depth + 1)
      if (found) return found
    }
    return undefined
  }
  for (const [k, v] of Object.entries(value)) {
    const key = textProblem(k, `${path}.${k.replaceAll('\u0000', '\\u0000')}`)
    if (key) return key
    const found = inputProblem(v, `${path}.${k}`, depth + 1)
    if (found) return found
  }
  return undefined
}

/** The first place a NUL character appears in a parsed value (strings and object keys), as a dotted path. */
export function nulPath(value: unknown, path: string): string | undefined {
  const p = inputProblem(value, path)
  return p?.kind === 'nul' ? p.path : undefined
}

/** The first number that is not finite (`1e309`, `Infinity` coerced from a query string), as a dotted path. */
export function nonFinitePath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path
  if (value === null || typeof value !== 'object' || depth >= MAX_INPUT_DEPTH) return undefined
  for (const [k, v] of Object.entries(value)) {
    const found = nonFinitePath(v, `${path}.${k}`, depth + 1)
    if (found) return found
  }
  return undefined
}

const MESSAGES: Record<Problem['kind'], string> = {
  nul: 'NUL characters (\\u0000, %00) are not accepted',
  unpaired: 'text must be well-formed Unicode (an unpaired surrogate such as \\ud800 is not accepted)',
  deep: `nested deeper than ${MAX_INPUT_DEPTH} levels`,
}

/**
 * No input a database can't store faithfully reaches a handler, the same on both engines: a NUL character
 * (PostgreSQL can't store one in `text`; SQLite would), an unpaired surrogate (PostgreSQL refuses it; SQLite would
 * keep it), or nesting past MAX_INPUT_DEPTH. One check for every route of every service, after parsing and
 * before validation → 400 naming where. Then, after validation, numbers that are not finite.
 */
export function installInputGuard(app: AnyApp) {
  app.addHook('preValidation', (request, _reply, done) => {
    const problem =
      inputProblem(request.params, 'params') ??
      inputProblem(request.query, 'querystring') ??
      inputProblem(request.body, 'body')
    if (!problem) return done()
    const message = `${problem.path}: ${MESSAGES[problem.kind]}`
    done(problem.kind === 'nul' ? new CommonErrors.NulByte(message) : new CommonErrors.BadInput(message))
  })
  // Ajv coerces `page=Infinity` (or `1e309`) to a number and then skips its range checks, which it applies to
  // finite numbers only; without this a bounded integer would reach the database as Infinity.
  app.addHook('preHandler', (request, _reply, done) => {
    const where =
      nonFinitePath(request.query, 'querystring') ??
      nonFinitePath(request.params, 'params') ??
      nonFinitePath(request.body, 'body')
    done(where ? new CommonErrors.NotFinite(`${where}: must be a finite number within its bounds`) : undefined)
  })
}
