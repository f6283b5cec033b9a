import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal, REQUEST_ID_HEADER } from '@switchboard/contracts'
import { withTraceHeaders } from '@switchboard/events'
import { Agent, type Dispatcher, request } from 'undici'

/** The answer of another service: its status and its JSON body (the fleet's error body when it refused). */
export interface ServiceReply<T = unknown> {
  status: number
  body: T
}

export interface ServiceClientOptions {
  /** the service's name, for errors and logs */
  service: string
  /** its replicas' base URLs (round-robin; a refused connection tries the next one once) */
  urls: readonly string[]
  internalSecret: string
  /** who this service is when it acts on its own (a service principal) */
  self: string
  timeoutMs?: number
}

/** The other service did not answer (refused, reset, timed out): a dependency failure (502/504 upstream). */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError'
  readonly statusCode: number
  readonly code: string
  constructor(service: string, timeout: boolean, options?: ErrorOptions) {
    super(`service ${service} ${timeout ? 'answered too slowly' : 'did not answer'}`, options)
    this.statusCode = timeout ? 504 : 502
    this.code = timeout ? 'DEPENDENCY_TIMEOUT' : 'DEPENDENCY_UNAVAILABLE'
  }
}

const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT'])

/**
 * Calls another service's routes (its `/internal/*` API, or its public routes on behalf of a caller) the way the
 * gateway would: with an internal principal signed by INTERNAL_SECRET — this service's own (`kind: service`), or
 * the caller's it acts for. Principal tokens are signed once a minute, not per call. Not undici's BalancedPool: the
 * retry rule (once, on another replica, only when nothing was sent) is the gateway's, and small enough to own.
 */
export function createServiceClient(opts: ServiceClientOptions) {
  if (opts.urls.length === 0) throw new Error(`no URL for service ${opts.service}`)
  const dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 64 })
  const timeoutMs = opts.timeoutMs ?? 5000
  let next = 0
  const signed = new Map<string, { token: string; renewAt: number }>()
  const selfPrincipal: Principal = {
    user_id: opts.self,
    kind: 'service',
    roles: [],
    permissions: ['*'],
    tenant_id: '',
    workspace_id: '',
    session_id: '',
    jti: `${opts.self}-service`,
    token_tenant_id: '',
    token_workspace_id: '',
  }

  async function principalToken(p: Principal): Promise<string> {
    const key = `${p.user_id}|${p.kind}|${p.tenant_id}|${p.workspace_id}|${p.permissions.join(',')}`
    const hit = signed.get(key)
    if (hit && hit.renewAt > Date.now()) return hit.token
    const token = await signInternalPrincipal(opts.internalSecret, p, 120)
    if (signed.size > 10_000) signed.clear()
    signed.set(key, { token, renewAt: Date.now() + 60_000 })
    return token
  }

  async function once(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const res = await request(`${base}${path}`, {
      method: method as 'GET',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await res.body.text()
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined }
  }

  return {
    /**
     * `as`: act for this principal (the caller, with its scope); default: this service itself, optionally narrowed
     * to `scope` (an unscoped service principal otherwise).
     */
    async call<T = unknown>(
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: string,
      body?: unknown,
      ctx: { as?: Principal; scope?: { tenant_id: string; workspace_id: string }; request_id?: string } = {},
    ): Promise<ServiceReply<T>> {
      const principal = ctx.as ?? (ctx.scope ? { ...selfPrincipal, ...ctx.scope } : selfPrincipal)
      let headers: Record<string, string> = { [PRINCIPAL_HEADER]: await principalToken(principal) }
      if (ctx.request_id) headers[REQUEST_ID_HEADER] = ctx.request_id
      // with tracing on, the callee's span continues the caller's trace (a consumer calling conversations' internal API)
      headers = withTraceHeaders(headers) ?? headers
      const first = opts.urls[next++ % opts.urls.length]!
      try {
        return (await once(first, method, path, headers, body)) as ServiceReply<T>
      } catch (err) {
        const code =
          (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code
        const timeout = (err as Error).name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT'
        if (timeout || !NOT_CONNECTED.has(code ?? '') || opts.urls.length < 2) {
          throw new ServiceUnavailableError(opts.service, timeout, { cause: err })
        }
        const second = opts.urls[next++ % opts.urls.length]!
        try {
          return (await once(second, method, path, headers, body)) as ServiceReply<T>
        } catch (again) {
          throw new ServiceUnavailableError(opts.service, (again as Error).name === 'TimeoutError', { cause: again })
        }
      }
    },
    close: () => dispatcher.close(),
  }
}

export type ServiceClient = ReturnType<typeof createServiceClient>

/** `UPSTREAM_<SERVICE>` as URLs (comma separated), the same variables the gateway reads. */
export function serviceUrlsFromEnv(env: NodeJS.ProcessEnv, service: string): string[] {
  return (env[`UPSTREAM_${service.toUpperCase().replaceAll('-', '_')}`] ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean)
}
