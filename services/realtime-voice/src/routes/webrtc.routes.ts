import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { RealtimeErrors } from '../errors.ts'
import { ConnectionList, WebrtcStats, WebrtcStatsQuery } from '../schemas/hub.schemas.ts'

/**
 * `GET /api/v1/webrtc/stats` and `GET /api/v1/webrtc/connections` (staff): WebRTC connection state as the hub
 * recorded it from the signalling it relayed and the clients' reports, in the shared cache so that every replica
 * answers alike. Scoped: another tenant's connection is as missing as none.
 */
export const webrtcRoutes: RouteModule<RealtimeService> = async (app, svc) => {
  const connections = svc.hub.context.connections
  const tags = ['realtime']

  app.get(
    '/api/v1/webrtc/stats',
    {
      schema: {
        tags,
        querystring: WebrtcStatsQuery,
        response: { 200: WebrtcStats, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const filter = scopeOf(request)
      const { session_id } = request.query
      if (session_id === undefined) return { connection_count: await connections.count(filter), scope: filter }
      const record = await connections.get(session_id, filter)
      if (!record) throw new RealtimeErrors.ConnectionNotFound(session_id)
      return record
    },
  )

  app.get(
    '/api/v1/webrtc/connections',
    { schema: { tags, response: { 200: ConnectionList, ...errorResponses(401) } } },
    async (request) => {
      const items = await connections.list(scopeOf(request))
      return { count: items.length, items }
    },
  )
}
