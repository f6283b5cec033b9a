/**
 * Fastify's own schema compilers (Ajv for what comes in, fast-json-stringify for what goes out), with each route's
 * schema compiled when the route is first used instead of when the unit starts.
 *
 * Why: compiling every route's schemas was a third of a unit's start-up CPU (profiled: Ajv and fast-json-stringify
 * ahead of module loading), paid again by every replica and every restart, for routes most replicas never serve
 * before they are scaled away. The compilers, their options and their output are Fastify's defaults; only the
 * moment changes. The first request of a route pays its compilation once (a few milliseconds).
 *
 * A schema that cannot compile no longer stops the start: its route answers 500 on first use, and
 * `compilePending()` (what the service test suites call after building an app) compiles every route's schemas at
 * once, so a broken one still fails a test run.
 *
 * Headers: Fastify lower-cases a headers schema's property names only for its built-in compiler; with ours it does
 * not, so header names must be written in lower case (as HTTP/2 sends them) — a headers schema naming one in
 * another case is refused when its route is registered.
 */
import ajvCompiler from '@fastify/ajv-compiler'
import fjsCompiler from '@fastify/fast-json-stringify-compiler'

interface RouteSchema {
  schema: unknown
  httpPart?: string
  method?: string
  url?: string
}
type Validate = ((data: unknown) => unknown) & { errors?: unknown }
type Compile<F> = (route: RouteSchema & Record<string, unknown>) => F
type Factory<F> = (externalSchemas: unknown, options?: unknown) => Compile<F>

/** The compilations not done yet, per set of compilers (one set per Fastify root instance). */
export interface LazyCompilers {
  compilersFactory: { buildValidator: Factory<Validate>; buildSerializer: Factory<(data: unknown) => string> }
  /** compiles every schema registered so far and not yet used; throws the first compilation error, naming its route */
  compilePending(): void
}

export function lazyCompilers(): LazyCompilers {
  const pending = new Set<() => void>()
  const buildAjv = ajvCompiler() as unknown as Factory<Validate>
  const buildFjs = fjsCompiler() as unknown as Factory<(data: unknown) => string>

  const buildValidator: Factory<Validate> = (external, options) => {
    const compile = buildAjv(external, options)
    return (route) => {
      if (route.httpPart === 'headers') refuseUpperCaseHeaders(route)
      let compiled: Validate | undefined
      const ensure = () => {
        compiled ??= named(route, () => compile(route))
        pending.delete(ensure)
        return compiled
      }
      pending.add(ensure)
      const validate: Validate = function (this: unknown, data) {
        const fn = ensure()
        const result = fn.call(this, data)
        validate.errors = fn.errors
        return result
      }
      return validate
    }
  }

  const buildSerializer: Factory<(data: unknown) => string> = (external, options) => {
    const compile = buildFjs(external, options)
    return (route) => {
      let compiled: ((data: unknown) => string) | undefined
      const ensure = () => {
        compiled ??= named(route, () => compile(route))
        pending.delete(ensure)
        return compiled
      }
      pending.add(ensure)
      return (data) => ensure()(data)
    }
  }

  return {
    compilersFactory: { buildValidator, buildSerializer },
    compilePending() {
      for (const ensure of [...pending]) ensure()
    },
  }
}

function named<F>(route: RouteSchema, compile: () => F): F {
  try {
    return compile()
  } catch (error) {
    const where = `${route.method ?? ''} ${route.url ?? ''} ${route.httpPart ?? 'response'}`.trim()
    throw new Error(`the schema of ${where} does not compile: ${(error as Error).message}`, { cause: error })
  }
}

function refuseUpperCaseHeaders(route: RouteSchema): void {
  const schema = route.schema as { properties?: Record<string, unknown>; required?: unknown }
  const names = [...Object.keys(schema?.properties ?? {}), ...(Array.isArray(schema?.required) ? schema.required : [])]
  const bad = names.find((n) => typeof n === 'string' && n !== n.toLowerCase())
  if (bad) throw new Error(`${route.method} ${route.url}: header ${bad} must be written in lower case in its schema`)
}
