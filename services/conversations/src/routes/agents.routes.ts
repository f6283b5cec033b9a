import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import {
  type AgentSessionChange,
  assignSessionToAgent,
  findAvailableAgent,
  releaseSessionFromAgent,
} from '../commands/agent-sessions.commands.ts'
import type { ConversationsService } from '../context.ts'
import {
  AgentParams,
  AgentSessionBody,
  AgentSessionResult,
  AvailableAgent,
  FindAvailableQuery,
} from '../schemas/agents.schemas.ts'
import { type Request, requirePermission } from './permission.ts'

const tags = ['agents']

/**
 * Routing and sessions by agent (the earlier system's `/api/agents` calls). Served here, not by
 * identity, because routing, sessions and load are this service's; the gateway sends these three paths here by
 * prefixes more specific than identity's `/api/agents` (packages/contracts/src/units.ts). Audited as
 * `agents.assign_session` / `agents.release_session` (resource: the agent; before/after: the session).
 */
export const agentRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.get(
    '/api/agents/find-available',
    {
      preValidation: requirePermission('agents.read'),
      schema: {
        tags,
        querystring: FindAvailableQuery,
        response: { 200: AvailableAgent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => findAvailableAgent(svc, callerOf(request), request.query),
  )

  const sessionRoute = {
    preValidation: requirePermission('agents.write'),
    schema: {
      tags,
      params: AgentParams,
      body: AgentSessionBody,
      response: { 200: AgentSessionResult, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }

  function reply(request: Request, change: AgentSessionChange, message: string) {
    request.audit = { ...request.audit, resource_id: change.agent.agent_id, before: change.before, after: change.after }
    return {
      message,
      agent_id: change.agent.agent_id,
      session_id: change.after.id,
      current_load: change.current_load,
      session: change.after,
    }
  }

  app.post('/api/agents/:id/assign-session', sessionRoute, async (request) => {
    request.audit = { ...request.audit, resource_id: request.params.id }
    const change = await assignSessionToAgent(svc, callerOf(request), request.params.id, request.body.session_id)
    return reply(request, change, 'Session assigned successfully')
  })

  app.post('/api/agents/:id/release-session', sessionRoute, async (request) => {
    request.audit = { ...request.audit, resource_id: request.params.id }
    const change = await releaseSessionFromAgent(svc, callerOf(request), request.params.id, request.body.session_id)
    return reply(request, change, 'Session released successfully')
  })
}
