import { signInternalPrincipal } from '@switchboard/auth'
import {
  PRINCIPAL_HEADER,
  type Principal,
  REFRESH_COOKIE,
  REFRESH_COOKIE_PATH,
  REQUEST_ID_HEADER,
} from '@switchboard/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import { Agent } from 'undici'
import type { GatewayConfig } from '../config.ts'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import { classifyFailure, type UpstreamPool } from '../routing/upstream-pool.ts'
import { callUpstream, type UpstreamAnswer } from './upstream-call.ts'

const INTERNAL_TTL_S = 60
/** A cached internal token is reused only while it has at least this much life left upstream. */
const INTERNAL_MARGIN_MS = 15_000
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'])
/** Hop-by-hop headers (RFC 9110 §7.6.1) plus what the gateway's own connection already dealt with. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']
/** Client headers that only the gateway may set upstream, or that undici sets for the upstream connection. */
const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP,
  'host',
  'content-length',
  'expect',
  'authorization',
  PRINCIPAL_HEADER,
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'cookie',
])
/** identity's routes that read the browser's refresh cookie */
const COOKIE_READERS = new Set([`${REFRESH_COOKIE_PATH}/refresh`, `${REFRESH_COOKIE_PATH}/logout`])
/** Also not copied back: Node dates the answer itself, and the gateway already set the (same) request id. */
const NOT_RETURNED = new Set([...HOP_BY_HOP, 'date', REQUEST_ID_HEADER])
/**
 * Answers up to this size with a declared length are read whole and sent in one write; anything else
 * (exports, unknown length) is streamed through.
 */
const BUFFER_MAX_BYTES = 256 * 1024

declare module 'fastify' {
  interface FastifyInstance {
    /** proxies to a replica of the request's service; a refused connection is retried once on another */
    proxyTo(request: FastifyRequest, reply: FastifyReply, base: string): Promise<void>
    /** What travels upstream with a request: the client's end-to-end headers, request id, forwarding, principal. */
    upstreamHeaders(request: FastifyRequest): Headers | Promise<Headers>
  }
}

export type Headers = Record<string, string | string[] | undefined>

function isTimeout(error: { code?: string; cause?: unknown }): boolean {
  const cause = error.cause as { code?: string } | undefined
  return TIMEOUT_CODES.has(error.code ?? '') || TIMEOUT_CODES.has(cause?.code ?? '')
}

/** Names a client's Connection header declares hop-by-hop (RFC 9110 §7.6.1): dropped as well. */
function connectionListed(value: string | string[] | undefined): Set<string> | undefined {
  if (typeof value !== 'string') return undefined
  const names = value
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return names.length ? new Set(names) : undefined
}

/**
 * Cookies are not credentials anywhere in the fleet, except the browser's refresh cookie at identity's auth routes
 * (docs/api.md §2 "Browser clients"): that one pair goes upstream to the two routes that read it (the browser sends
 * it to all of REFRESH_COOKIE_PATH), and nothing else of the Cookie header.
 */
function refreshCookieFor(request: FastifyRequest): string | undefined {
  if (!COOKIE_READERS.has(request.url.split('?', 1)[0] ?? '')) return undefined
  const given = request.headers.cookie
  if (!given) return undefined
  for (const pair of given.split(';')) {
    const eq = pair.indexOf('=')
    if (eq > 0 && pair.slice(0, eq).trim() === REFRESH_COOKIE) return pair.trim()
  }
  return undefined
}

function forwardedHeaders(request: FastifyRequest): Headers {
  const given = request.headers
  const listed = connectionListed(given.connection)
  const out: Headers = {}
  for (const name in given) {
    if (NOT_FORWARDED.has(name) || listed?.has(name)) continue
    out[name] = given[name]
  }
  const cookie = refreshCookieFor(request)
  if (cookie) out.cookie = cookie
  return out
}

/**
 * HTTP proxy on an undici Agent (a keep-alive pool per upstream origin). Upstream failures always become
 * the fleet error body: refused or reset → 502, too slow → 504; an upstream's own answer (503 included)
 * passes through unchanged. A replica that refuses or resets a connection is ejected from the pool, and the
 * request goes once to another replica when nothing of it can have been applied: a refused connection (any
 * method) or a broken one under a safe method. Never more than once, never after a timeout: a retry loop is
 * how a gateway learns to hang. Not @fastify/reply-from: small answers (nearly all of them) are read whole
 * and written once instead of piped through two streams (see upstream-call.ts).
 */
export const proxyPlugin = fp(
  async (app: FastifyInstance, opts: { config: GatewayConfig; metrics: GatewayMetrics; pool: UpstreamPool }) => {
    const { config, metrics, pool } = opts
    function upstreamError(request: FastifyRequest, service: string, error: unknown): Error {
      const timeout = isTimeout(error as never)
      metrics.upstreamErrors.inc({ service, kind: timeout ? 'timeout' : 'unavailable' })
      request.log.warn({ err: error, service }, 'upstream failed')
      return timeout ? new GatewayErrors.UpstreamTimeout(service) : new GatewayErrors.UpstreamUnavailable(service)
    }
    const agent = new Agent({
      connections: 128,
      pipelining: 1,
      headersTimeout: config.upstream_timeout_ms,
      bodyTimeout: config.upstream_timeout_ms,
      connect: { timeout: config.upstream_connect_timeout_ms, rejectUnauthorized: true },
    })
    app.addHook('onClose', async () => agent.close())

    // An upstream is configured as a URL; undici wants its origin, and any path it has prefixes the request's.
    const upstreams = new Map<string, { origin: string; path: string }>()
    function upstream(base: string) {
      let u = upstreams.get(base)
      if (!u) {
        const url = new URL(base)
        u = { origin: url.origin, path: url.pathname.replace(/\/+$/, '') }
        upstreams.set(base, u)
      }
      return u
    }

    // Signing per request would dominate the hot path; one token per access token and scope is reused
    // (returned synchronously when cached: no promise on the common path).
    const minted = new LRUCache<string, { token: string; until: number }>({ max: 10_000 })
    function internalToken(p: Principal, tokenExp: number): string | Promise<string> {
      const key = `${p.jti}|${p.tenant_id}|${p.workspace_id}`
      const hit = minted.get(key)
      if (hit && hit.until > Date.now()) return hit.token
      return signInternalPrincipal(config.internal_secret, p, INTERNAL_TTL_S).then((token) => {
        const until = Math.min(Date.now() + INTERNAL_TTL_S * 1000 - INTERNAL_MARGIN_MS, tokenExp * 1000)
        minted.set(key, { token, until })
        return token
      })
    }

    function withPrincipal(headers: Headers, internal: string | undefined): Headers {
      if (internal) headers[PRINCIPAL_HEADER] = internal
      return headers
    }

    function upstreamHeaders(request: FastifyRequest): Headers | Promise<Headers> {
      const headers = forwardedHeaders(request)
      headers[REQUEST_ID_HEADER] = String(request.id)
      headers['x-forwarded-for'] = request.ip
      headers['x-forwarded-proto'] = request.protocol
      // the host the client addressed: services' public pages link canonically and list sitemaps under it
      headers['x-forwarded-host'] = request.host
      const principal = request.gw.principal
      if (!principal) return headers
      const internal = internalToken(principal, request.gw.claims!.exp)
      return typeof internal === 'string'
        ? withPrincipal(headers, internal)
        : internal.then((token) => withPrincipal(headers, token))
    }
    app.decorate('upstreamHeaders', upstreamHeaders)

    app.decorate('proxyTo', async function proxyTo(request: FastifyRequest, reply: FastifyReply, base: string) {
      const service = request.gw.service ?? 'unknown'
      const pending = upstreamHeaders(request)
      const headers = pending instanceof Promise ? await pending : pending
      const body = request.body as Buffer | undefined
      const hasBody = body !== undefined && request.method !== 'GET' && request.method !== 'HEAD'
      if (hasBody) headers['content-type'] ??= 'application/octet-stream'
      request.gw.proxied = true
      const call = (to: string) => {
        const target = upstream(to)
        return callUpstream(
          agent,
          {
            origin: target.origin,
            path: target.path + request.url,
            method: request.method as 'GET',
            headers,
            body: hasBody ? body : null,
          },
          NOT_RETURNED,
          BUFFER_MAX_BYTES,
        )
      }
      let answer: UpstreamAnswer
      try {
        answer = await call(base)
      } catch (first) {
        const verdict = classifyFailure(first, request.method)
        if (verdict.eject) pool.failed(service, base)
        const other = verdict.retry ? pool.pick(service, base) : undefined
        if (!other || other === base) throw upstreamError(request, service, first)
        metrics.upstreamRetries.inc({ service })
        try {
          answer = await call(other)
        } catch (second) {
          if (classifyFailure(second, request.method).eject) pool.failed(service, other)
          throw upstreamError(request, service, second)
        }
      }
      return reply.code(answer.status).headers(answer.headers).send(answer.body)
    })
  },
  { name: 'gateway-proxy' },
)
