import replyFrom from '@fastify/reply-from'
import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal, REQUEST_ID_HEADER } from '@switchboard/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { GatewayConfig } from '../config.ts'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'

const INTERNAL_TTL_S = 60
/** A cached internal token is reused only while it has at least this much life left upstream. */
const INTERNAL_MARGIN_MS = 15_000
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'])
/** Client headers that only the gateway may set upstream. */
const STRIPPED = [
  'authorization',
  PRINCIPAL_HEADER,
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'cookie',
]

declare module 'fastify' {
  interface FastifyInstance {
    proxyTo(request: FastifyRequest, reply: FastifyReply, base: string): Promise<void>
  }
}

function isTimeout(error: { code?: string; statusCode?: number; cause?: unknown }): boolean {
  const cause = error.cause as { code?: string } | undefined
  return error.statusCode === 504 || TIMEOUT_CODES.has(error.code ?? '') || TIMEOUT_CODES.has(cause?.code ?? '')
}

/**
 * HTTP proxy on @fastify/reply-from (undici pools). Upstream failures always become the fleet error body:
 * refused or reset → 502, too slow → 504; an upstream's own answer (503 included) passes through unchanged.
 * No retries: a POST may have been applied, and a retry loop is how a gateway learns to hang.
 */
export const proxyPlugin = fp(
  async (app: FastifyInstance, opts: { config: GatewayConfig; metrics: GatewayMetrics }) => {
    const { config, metrics } = opts
    await app.register(replyFrom, {
      undici: {
        connections: 128,
        pipelining: 1,
        headersTimeout: config.upstream_timeout_ms,
        bodyTimeout: config.upstream_timeout_ms,
        connect: { timeout: config.upstream_connect_timeout_ms },
        tls: { rejectUnauthorized: true },
      } as never,
      disableRequestLogging: true,
    })

    // Signing per request would dominate the hot path; one token per access token and scope is reused.
    const minted = new LRUCache<string, { token: string; until: number }>({ max: 10_000 })
    async function internalToken(p: Principal, tokenExp: number): Promise<string> {
      const key = `${p.jti}|${p.tenant_id}|${p.workspace_id}`
      const hit = minted.get(key)
      if (hit && hit.until > Date.now()) return hit.token
      const token = await signInternalPrincipal(config.internal_secret, p, INTERNAL_TTL_S)
      const until = Math.min(Date.now() + INTERNAL_TTL_S * 1000 - INTERNAL_MARGIN_MS, tokenExp * 1000)
      minted.set(key, { token, until })
      return token
    }

    app.decorate('proxyTo', async function proxyTo(request: FastifyRequest, reply: FastifyReply, base: string) {
      const service = request.gw.service ?? 'unknown'
      const principal = request.gw.principal
      const internal = principal ? await internalToken(principal, request.gw.claims!.exp) : undefined
      const body = request.body as Buffer | undefined
      const hasBody = body !== undefined && request.method !== 'GET' && request.method !== 'HEAD'
      request.gw.proxied = true
      return reply.from(`${base}${request.url}`, {
        ...(hasBody ? { body, contentType: request.headers['content-type'] ?? 'application/octet-stream' } : {}),
        retryDelay: () => null,
        rewriteRequestHeaders: (_req, headers) => {
          for (const h of STRIPPED) delete headers[h]
          headers[REQUEST_ID_HEADER] = String(request.id)
          headers['x-forwarded-for'] = request.ip
          headers['x-forwarded-proto'] = request.protocol
          if (internal) headers[PRINCIPAL_HEADER] = internal
          return headers
        },
        onError: (r, { error }) => {
          const timeout = isTimeout(error as never)
          metrics.upstreamErrors.inc({ service, kind: timeout ? 'timeout' : 'unavailable' })
          request.log.warn({ err: error, service }, 'upstream failed')
          const e = timeout
            ? new GatewayErrors.UpstreamTimeout(service)
            : new GatewayErrors.UpstreamUnavailable(service)
          r.send(e)
        },
      })
    })
  },
  { name: 'gateway-proxy' },
)
