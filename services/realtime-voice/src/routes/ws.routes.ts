import websocket from '@fastify/websocket'
import type { Principal } from '@switchboard/contracts'
import { errorResponses, type RouteModule } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { RealtimeErrors } from '../errors.ts'
import type { Arrival } from '../hub/hub.ts'
import { SocketQuery } from '../schemas/hub.schemas.ts'

/**
 * `GET /api/v1/ws`: the sockets the gateway relays (gateway/src/websocket/), with the principal it signed when the
 * client had a token and none for an anonymous widget visitor (an `optional` route module). Refusals before the
 * upgrade are HTTP answers the gateway passes on; after it, frames (services/realtime-voice/README.md).
 */
export const socketRoutes: RouteModule<RealtimeService> = async (app, svc) => {
  const limits = svc.config.websocket
  await app.register(websocket, {
    options: {
      // a bigger frame: ws closes the socket with 1009 itself
      maxPayload: limits.max_frame_bytes,
      perMessageDeflate: false,
      // the hub tracks its sockets itself
      clientTracking: false,
    },
    // A socket error (a protocol violation, an oversize frame) is ws's to close with its code; the plugin's
    // default would terminate the socket before that close frame is out.
    errorHandler: (err, _socket, request) => request.log.debug({ err }, 'websocket error'),
    // the hub closes its sockets with 1001 (reconnect elsewhere and resume)
    preClose: async () => svc.hub.close(),
  })

  // An upgrade refused before the plugin saw it (the principal check runs first) leaves its socket open after the
  // answer: nobody would close it, and the server could not close either. The plugin closes the ones it saw.
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.ws && request.headers.upgrade?.toLowerCase() === 'websocket') request.raw.socket.destroy()
    done()
  })

  app.route({
    method: 'GET',
    url: '/api/v1/ws',
    schema: {
      summary: 'WebSocket of widgets and agent consoles (upgrade only; frames in services/realtime-voice/README.md)',
      querystring: SocketQuery,
      response: errorResponses(400, 401, 426, 429),
    },
    preHandler: async (request) => {
      if (!request.ws) return
      const limit = svc.hub.refusal(arrival(request))
      if (limit !== undefined) throw new RealtimeErrors.TooManySockets(limit)
    },
    handler: async () => {
      throw new RealtimeErrors.UpgradeRequired()
    },
    wsHandler: (socket, request) => svc.hub.accept(socket, arrival(request)),
  })

  function arrival(request: Requested): Arrival {
    // Reached only through the gateway (an internal service), which names the client in X-Forwarded-For.
    const forwarded = request.headers['x-forwarded-for']
    const first = typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined
    // `principal` is null on this optional route when the client had no token
    return { principal: request.principal ?? null, address: first || request.ip, query: request.query }
  }
}

interface Requested {
  principal: Principal | null
  headers: Record<string, string | string[] | undefined>
  ip: string
  query: SocketQuery
}
