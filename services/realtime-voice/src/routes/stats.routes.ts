import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { SocketStats, StatsQuery } from '../schemas/hub.schemas.ts'

/**
 * `GET /api/v1/ws/stats` (staff, through the gateway): connected sockets by kind and sessions with sockets, in the
 * caller's scope — this replica's, or with `scope=cluster` every live replica's summed (each replica publishes its
 * counts to the shared cache every HUB_STATS_INTERVAL_MS, so others' counts are that fresh).
 */
export const statsRoutes: RouteModule<RealtimeService> = async (app, svc) => {
  app.get(
    '/api/v1/ws/stats',
    {
      schema: {
        tags: ['realtime'],
        querystring: StatsQuery,
        response: { 200: SocketStats, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const filter = scopeOf(request)
      if (request.query.scope !== 'cluster') return svc.hub.counts(filter)
      const replicas = await svc.hub.clusterCounts(filter)
      const sum = (pick: (r: (typeof replicas)[number]) => number) => replicas.reduce((n, r) => n + pick(r), 0)
      return {
        connected_clients: sum((r) => r.connected_clients),
        by_kind: {
          visitor: sum((r) => r.by_kind.visitor),
          customer: sum((r) => r.by_kind.customer),
          console: sum((r) => r.by_kind.console),
          service: sum((r) => r.by_kind.service),
        },
        sessions_with_sockets: sum((r) => r.sessions_with_sockets),
        replica: svc.hub.replica,
        replicas,
      }
    },
  )
}
