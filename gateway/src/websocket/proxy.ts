import type { IncomingMessage } from 'node:http'
import websocket from '@fastify/websocket'
import type { PermissionTable } from '@switchboard/auth'
import type { Logger } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type WebSocket from 'ws'
import type { GatewayConfig } from '../config.ts'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import { type AuthDeps, bearer, installAuthentication } from '../plugins/authenticate.ts'
import { installRouting } from '../plugins/routes.ts'
import { installScopeGuard } from '../plugins/scope-guard.ts'
import { WEBSOCKET_PATHS } from '../routing/route-classes.ts'
import type { ServiceTable } from '../routing/service-table.ts'
import { classifyFailure } from '../routing/upstream-pool.ts'
import type { TokenState } from '../token-state/token-state.ts'
import { CLOSE, closeSide, createLiveSockets } from './live-sockets.ts'
import { createJoin } from './relay.ts'
import { openUpstreamSocket, UpstreamRefusal, upstreamWsUrl } from './upstream.ts'

/**
 * A browser cannot set headers on a WebSocket, so it may offer its access token as a sub-protocol
 * `bearer.<token>` next to the real one (`new WebSocket(url, ['switchboard.v1', 'bearer.' + token])`).
 * The query string stays closed to tokens (they end up in access logs).
 */
export const BEARER_PROTOCOL = 'bearer.'

function offeredProtocols(request: FastifyRequest): string[] {
  const h = request.headers['sec-websocket-protocol']
  if (typeof h !== 'string') return []
  return h
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
}

/** The Authorization header, else a `bearer.` sub-protocol, else '' (anonymous). */
export function websocketToken(request: FastifyRequest): string {
  const fromHeader = bearer(request)
  if (fromHeader !== '') return fromHeader
  const entry = offeredProtocols(request).find((p) => p.startsWith(BEARER_PROTOCOL))
  return entry === undefined ? '' : entry.slice(BEARER_PROTOCOL.length) || 'malformed'
}

/** Whose connections the per-client cap counts: the user, or the address of an anonymous client. */
const clientKeyOf = (request: FastifyRequest) => request.gw.claims?.user_id ?? request.ip

export interface WebsocketProxyDeps {
  config: GatewayConfig
  auth: AuthDeps
  tokenState: TokenState
  permissionTable: PermissionTable | undefined
  /** a replica of `service` (other than `except`), as the HTTP proxy picks them */
  pick: (service: string, except?: string) => string | undefined
  /** `base` failed at the connection level: ejected like a replica the HTTP proxy could not reach */
  failed: (service: string, base: string) => void
  table: ServiceTable
  metrics: GatewayMetrics
  logger: Logger
}

/**
 * `GET /api/v1/ws`: the same policies as any request (rate limit, optional authentication, scope), then
 * the upstream's half is opened BEFORE the client's upgrade is accepted, then frames are relayed both
 * ways with backpressure (relay.ts). Plain HTTP on the path gets 426. Not @fastify/http-proxy's WebSocket
 * mode: it dials the upstream only after accepting the client (no 502/504 answer possible) and knows no
 * token lifetime, while a socket here must end when its token would be refused.
 *
 * Two plugins sharing this replica's connections: `upgrades` must be registered before every policy and
 * route (its hooks mark an upgrade request and close its socket after any HTTP answer — a refusal, or
 * an upgrade aimed at an HTTP route), `routes` where the other proxied contexts are.
 */
export function createWebsocketProxy(deps: WebsocketProxyDeps) {
  const { config, metrics } = deps
  const limits = config.websocket
  const live = createLiveSockets(deps.tokenState, deps.logger, limits.ping_interval_ms)
  /** upstream halves opened for a handshake whose client half is not joined yet (taken out on join or drop) */
  const opened = new Map<IncomingMessage, WebSocket>()
  let connecting = 0
  let closing = false

  const upgrades = fp(
    async (app: FastifyInstance) => {
      await app.register(websocket, {
        options: {
          maxPayload: limits.max_message_bytes,
          perMessageDeflate: false,
          clientTracking: false,
          // The client gets the sub-protocol the upstream chose, never its bearer entry.
          handleProtocols: (_offered, req) => opened.get(req)?.protocol || false,
        },
        preClose(done) {
          closing = true
          for (const upstream of opened.values()) upstream.terminate()
          opened.clear()
          live.closeAll('gateway shutting down')
          done()
        },
      })
      // Only the WebSocket route takes upgrades; any other route (proxied, the gateway's own, none) says 400.
      app.addHook('onRequest', (request, _reply, done) => {
        if (!request.ws || request.routeOptions.config?.routeClass === 'optional') return done()
        done(new GatewayErrors.WebsocketNotServed())
      })
    },
    { name: 'gateway-websocket-upgrades' },
  )

  const join = createJoin({ limits, metrics, live })

  const routes = async (app: FastifyInstance) => {
    await app.register(async (ctx) => {
      installRouting(ctx, deps.table)
      installAuthentication(ctx, 'optional', deps.auth, websocketToken)
      installScopeGuard(ctx, deps.permissionTable, { anonymous: true })
      for (const url of WEBSOCKET_PATHS) {
        ctx.route({
          method: 'GET',
          url,
          config: { routeClass: 'optional' },
          // Opening the upstream half here lets its failures still be HTTP answers to the client.
          preHandler: async (request, reply) => {
            if (!request.ws || request.method !== 'GET') return // a HEAD can't be upgraded
            if (closing) throw new GatewayErrors.ShuttingDown()
            const offered = offeredProtocols(request)
            const protocols = offered.filter((p) => !p.startsWith(BEARER_PROTOCOL))
            // Nothing could be echoed back but the token itself, and a browser fails a handshake without one.
            if (offered.length > 0 && protocols.length === 0) throw new GatewayErrors.SubprotocolRequired()
            if (live.size + connecting >= limits.max_connections) throw new GatewayErrors.WebsocketCapacity()
            if (live.countOf(clientKeyOf(request)) >= limits.max_connections_per_client)
              throw new GatewayErrors.WebsocketClientCapacity()
            const service = request.gw.service!
            const base = deps.pick(service)
            if (!base) {
              metrics.upstreamErrors.inc({ service, kind: 'not_configured' })
              throw new GatewayErrors.UpstreamNotConfigured(service)
            }
            // A client that leaves before its half is joined must not leave the upstream half open; the
            // listener goes on before the upstream handshake starts, so an early reset is seen too.
            const socket = request.raw.socket
            const drop = () => {
              const upstream = opened.get(request.raw)
              if (!upstream) return
              opened.delete(request.raw)
              upstream.terminate()
            }
            socket.once('close', drop)
            connecting++
            try {
              const headers = await app.upstreamHeaders(request)
              const dial = (at: string) =>
                openUpstreamSocket({
                  url: upstreamWsUrl(at, request.url),
                  protocols,
                  headers,
                  handshakeTimeoutMs: limits.handshake_timeout_ms,
                  maxPayload: limits.max_message_bytes,
                  service,
                })
              const upstream = await dial(base).catch(async (first) => {
                // A replica that could not be reached (killed, restarting) is ejected and the handshake goes once
                // to another one, as the HTTP proxy does; the upstream's own refusal (4xx/5xx) is its answer.
                if (first instanceof UpstreamRefusal) throw first
                const verdict = classifyFailure(first, 'GET')
                if (verdict.eject) deps.failed(service, base)
                const other = verdict.retry ? deps.pick(service, base) : undefined
                if (!other || other === base) throw first
                metrics.upstreamRetries.inc({ service })
                return dial(other).catch((second) => {
                  if (!(second instanceof UpstreamRefusal) && classifyFailure(second, 'GET').eject) {
                    deps.failed(service, other)
                  }
                  throw second
                })
              })
              opened.set(request.raw, upstream)
              if (socket.destroyed) drop()
              if (closing) {
                drop()
                throw new GatewayErrors.ShuttingDown()
              }
            } catch (err) {
              if (err instanceof UpstreamRefusal) {
                return reply
                  .code(err.status)
                  .header('content-type', err.contentType ?? 'text/plain')
                  .send(err.body)
              }
              if (err instanceof GatewayErrors.UpstreamTimeout || err instanceof GatewayErrors.UpstreamUnavailable) {
                const timeout = err instanceof GatewayErrors.UpstreamTimeout
                metrics.upstreamErrors.inc({ service, kind: timeout ? 'timeout' : 'unavailable' })
                request.log.warn({ err, service }, 'websocket: upstream handshake failed')
              }
              throw err
            } finally {
              connecting--
            }
          },
          handler: async () => {
            throw new GatewayErrors.UpgradeRequired()
          },
          wsHandler: (client: WebSocket, request: FastifyRequest) => {
            const upstream = opened.get(request.raw)
            opened.delete(request.raw)
            if (!upstream) return closeSide(client, CLOSE.internal, 'upstream not connected')
            if (closing) {
              upstream.terminate()
              return closeSide(client, CLOSE.goingAway, 'gateway shutting down')
            }
            const { claims, kind } = request.gw
            join({ client, upstream, clientKey: clientKeyOf(request), claims, kind }, request)
          },
        })
      }
    })
  }
  return { upgrades, routes }
}
