import { callerOf, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import {
  type AgentChange,
  createAgent,
  setAgentStatusCommand,
  updateAgentCommand,
} from '../commands/agents.commands.ts'
import { revokeUserTokensCommand } from '../commands/user-tokens.commands.ts'
import type { IdentityService } from '../context.ts'
import {
  type AgentStatus,
  agentStats,
  agentView,
  findAgentByUserInScope,
  findAgentInScope,
  listAgents,
  listPresentAgents,
} from '../db/agents.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { agentViewsWithLoad, agentViewWithLoad } from '../queries/agent-views.queries.ts'
import {
  AgentIdParams,
  AgentListQuery,
  AgentPage,
  AgentRevokeResult,
  AgentSchema,
  AgentStats,
  AgentStatsQuery,
  AgentStatusBody,
  CreateAgentBody,
  OnlineAgents,
  UpdateAgentBody,
} from '../schemas/agents.schemas.ts'
import { managementErrors, requireAccess } from './access.ts'
import { userTokenSnapshot } from './snapshots.ts'

const tags = ['agents']

/** The agent directory: every record is bound to one tenant/workspace and filtered by it (docs/api.md §4). */
export const agentRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const read = requireAccess('agents.read')
  const write = requireAccess('agents.write')

  /** online/offline/status: the audit record holds the status only. */
  async function changeStatus(request: FastifyRequest, id: string, status: AgentStatus) {
    request.audit.resource_id = id
    const { before, after }: AgentChange = await setAgentStatusCommand(svc, callerOf(request), id, status)
    request.audit.before = { status: before.status }
    request.audit.after = { status: after.status }
    return agentViewWithLoad(svc.db, after)
  }

  app.post(
    '/api/agents',
    {
      preValidation: write,
      schema: { tags, body: CreateAgentBody, response: { 201: AgentSchema, ...managementErrors } },
    },
    async (request, reply) => {
      const agent = await createAgent(svc, callerOf(request), request.body)
      request.audit.resource_id = agent.id
      request.audit.after = agentView(agent)
      return reply.code(201).send(await agentViewWithLoad(svc.db, agent))
    },
  )

  app.get(
    '/api/agents',
    {
      preValidation: read,
      schema: { tags, querystring: AgentListQuery, response: { 200: AgentPage, ...managementErrors } },
    },
    async (request) => {
      const { status, department } = request.query
      const window = pageWindow(request.query)
      const { rows, total } = await listAgents(svc.db, scopeOf(request), { status, department }, window)
      return pageOf(await agentViewsWithLoad(svc.db, rows), total, window)
    },
  )

  // Static segments: the router prefers them to `/:id`, so `online` and `stats` are never taken for an agent id.
  app.get(
    '/api/agents/online',
    { preValidation: read, schema: { tags, response: { 200: OnlineAgents, ...managementErrors } } },
    async (request) => {
      const items = await agentViewsWithLoad(svc.db, await listPresentAgents(svc.db, scopeOf(request)))
      return { count: items.length, items }
    },
  )

  app.get(
    '/api/agents/stats',
    {
      preValidation: read,
      schema: { tags, querystring: AgentStatsQuery, response: { 200: AgentStats, ...managementErrors } },
    },
    async (request) => agentStats(svc.db, scopeOf(request), request.query.agent_id),
  )

  app.get(
    '/api/agents/:id',
    {
      preValidation: read,
      schema: { tags, params: AgentIdParams, response: { 200: AgentSchema, ...managementErrors } },
    },
    async (request) => {
      const agent = await findAgentInScope(svc.db, request.params.id, scopeOf(request))
      if (!agent) throw new IdentityErrors.AgentNotFound()
      return agentViewWithLoad(svc.db, agent)
    },
  )

  app.put(
    '/api/agents/:id',
    {
      preValidation: write,
      schema: {
        tags,
        params: AgentIdParams,
        body: UpdateAgentBody,
        response: { 200: AgentSchema, ...managementErrors },
      },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await updateAgentCommand(svc, callerOf(request), id, request.body)
      request.audit.before = agentView(before)
      request.audit.after = agentView(after)
      return agentViewWithLoad(svc.db, after)
    },
  )

  const statusRoute = {
    preValidation: write,
    schema: { tags, params: AgentIdParams, response: { 200: AgentSchema, ...managementErrors } },
  }
  app.post('/api/agents/:id/online', statusRoute, async (request) => changeStatus(request, request.params.id, 'online'))
  app.post('/api/agents/:id/offline', statusRoute, async (request) =>
    changeStatus(request, request.params.id, 'offline'),
  )
  app.put(
    '/api/agents/:id/status',
    { ...statusRoute, schema: { ...statusRoute.schema, body: AgentStatusBody } },
    async (request) => changeStatus(request, request.params.id, request.body.status),
  )

  /** The caller's own agent record in its scope: an agent sets its own presence with agents.read (`me` is static). */
  async function ownAgent(request: FastifyRequest) {
    const userId = request.principal?.user_id
    const agent = userId ? await findAgentByUserInScope(svc.db, userId, scopeOf(request)) : undefined
    if (!agent) throw new IdentityErrors.AgentNotFound()
    return agent
  }
  app.get(
    '/api/agents/me',
    { preValidation: read, schema: { tags, response: { 200: AgentSchema, ...managementErrors } } },
    async (request) => agentViewWithLoad(svc.db, await ownAgent(request)),
  )
  app.put(
    '/api/agents/me/status',
    {
      preValidation: read,
      schema: { tags, body: AgentStatusBody, response: { 200: AgentSchema, ...managementErrors } },
    },
    async (request) => changeStatus(request, (await ownAgent(request)).id, request.body.status),
  )

  app.post(
    '/api/agents/:id/revoke-tokens',
    {
      // listed on the security surface, so security.write as well as the resource's own write
      preValidation: requireAccess('agents.write', 'security.write'),
      schema: { tags, params: AgentIdParams, response: { 200: AgentRevokeResult, ...managementErrors } },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await revokeUserTokensCommand(svc, callerOf(request), { agent_id: id })
      request.audit.before = userTokenSnapshot(before)
      request.audit.after = userTokenSnapshot(after)
      return { agent_id: id, token_version: Number(after.token_version) }
    },
  )
}
