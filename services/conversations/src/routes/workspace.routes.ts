import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { openSessionCounts, presentAgents, recentSessions } from '../db/session-queries.repository.ts'
import { toSession } from '../db/sessions.repository.ts'
import { agentOverview, channelOverview } from '../domain/workspace-overview.ts'
import { WorkspaceOverview, WorkspaceQuery } from '../schemas/workspace.schemas.ts'

const tags = ['conversations']

/** `GET /api/omni/workspace`: the conversation workspace at a glance, for the caller's scope. */
export const workspaceRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.get(
    '/api/omni/workspace',
    {
      schema: { tags, querystring: WorkspaceQuery, response: { 200: WorkspaceOverview, ...errorResponses(400, 401) } },
    },
    async (request) => {
      const scope = scopeOf(request)
      const [counts, agents, recent] = await Promise.all([
        openSessionCounts(svc.db, scope),
        presentAgents(svc.db, scope),
        recentSessions(svc.db, scope, request.query.limit),
      ])
      const sessions = channelOverview(counts)
      return {
        total_active_sessions: sessions.total_active_sessions,
        waiting_queue: sessions.waiting_queue,
        ...agentOverview(agents),
        channels: sessions.channels,
        recent_sessions: recent.map((r) => toSession(r)),
      }
    },
  )
}
