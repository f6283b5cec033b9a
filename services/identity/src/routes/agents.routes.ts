import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdentityEvents, pageOf } from '@switchboard/contracts'
import { concreteScope, scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import {
  type AgentRow,
  type AgentStatus,
  agentView,
  findAgentByUserInScope,
  findAgentInScope,
  insertAgent,
  listAgents,
  setAgentStatus,
  updateAgent,
} from '../db/agents.repository.ts'
import { isUserVisible } from '../db/scoped-users.repository.ts'
import { findUserById, identityDb, ROLES, type UserRow } from '../db/users.repository.ts'
import { DirectoryErrors } from '../directory-errors.ts'
import { revokeUserTokens, setUserRole } from '../domain/revocation.ts'
import { IdentityErrors } from '../errors.ts'
import { type EventContext, emit, inTransaction } from '../events/publish.ts'
import {
  AgentIdParams,
  AgentListQuery,
  AgentPage,
  AgentRevokeResult,
  AgentSchema,
  AgentStatusBody,
  CreateAgentBody,
  UpdateAgentBody,
} from '../schemas/agents.schemas.ts'
import { errorResponses } from '../schemas/security.schemas.ts'
import { requireAccess, tokenUnscoped } from './access.ts'

const tags = ['agents']

function emitAgentUpserted(ctx: EventContext, a: AgentRow) {
  const v = agentView(a)
  return emit(ctx, IdentityEvents.agentUpserted, {
    agent_id: v.id,
    user_id: v.user_id,
    name: v.name,
    department: v.department,
    skills: v.skills,
    max_concurrent: v.max_concurrent,
    status: v.status,
    rating: v.rating,
    avg_response_time: v.avg_response_time,
  })
}

/** The agent directory (API-NOTES.md): every record is bound to one tenant/workspace and filtered by it. */
export const agentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = identityDb(app)
  const read = requireAccess('agents.read')
  const write = requireAccess('agents.write')

  async function agentOr404(request: FastifyRequest, id: string, trx = db): Promise<AgentRow> {
    const agent = await findAgentInScope(trx, id, scopeOf(request))
    if (!agent) throw new DirectoryErrors.AgentNotFound()
    return agent
  }

  /** online/offline/status: one transaction, an event only when the status really changed. */
  async function changeStatus(request: FastifyRequest, id: string, status: AgentStatus) {
    request.audit.resource_id = id
    const { before, after } = await inTransaction(app, async (trx) => {
      const before = await agentOr404(request, id, trx)
      if (before.status === status) return { before, after: before }
      const after = (await setAgentStatus(trx, id, status, new Date().toISOString())) as AgentRow
      await emit({ trx, outbox: app.outbox, from: request }, IdentityEvents.agentStatusChanged, {
        agent_id: after.id,
        user_id: after.user_id,
        status: after.status,
        previous: before.status,
      })
      return { before, after }
    })
    request.audit.before = { status: before.status }
    request.audit.after = { status: after.status }
    return agentView(after)
  }

  app.post(
    '/api/agents',
    {
      preValidation: write,
      schema: { tags, body: CreateAgentBody, response: { 201: AgentSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const scope = concreteScope(request)
      const body = request.body
      const agent = await inTransaction(app, async (trx) => {
        // A scoped caller may only promote users it can already see; a platform admin or service any user.
        const visible = tokenUnscoped(request) || (await isUserVisible(trx, body.user_id, scopeOf(request)))
        const user: UserRow | undefined = visible ? await findUserById(trx, body.user_id) : undefined
        if (!user) throw new IdentityErrors.UserNotFound()
        if (await findAgentByUserInScope(trx, user.id, scope)) throw new DirectoryErrors.AgentExists()
        const ctx = { trx, outbox: app.outbox, from: request }
        const agent = await insertAgent(trx, {
          id: randomUUID(),
          user_id: user.id,
          ...scope,
          name: body.name ?? user.name,
          department: body.department ?? '',
          skills: body.skills ?? [],
          max_concurrent: body.max_concurrent ?? 5,
          now: new Date().toISOString(),
        })
        // Role change revokes the user's tokens and emits identity.user.role_changed (revocation.ts).
        if (user.role !== ROLES.admin && user.role !== ROLES.agent) await setUserRole(ctx, user.id, ROLES.agent)
        await emitAgentUpserted(ctx, agent)
        return agent
      })
      request.audit.resource_id = agent.id
      request.audit.after = agentView(agent)
      return reply.code(201).send(agentView(agent))
    },
  )

  app.get(
    '/api/agents',
    {
      preValidation: read,
      schema: { tags, querystring: AgentListQuery, response: { 200: AgentPage, ...errorResponses } },
    },
    async (request) => {
      const { page = 1, page_size: pageSize = 20, status, department } = request.query
      const { rows, total } = await listAgents(db, scopeOf(request), { status, department }, page, pageSize)
      return pageOf(rows.map(agentView), total, page, pageSize)
    },
  )

  app.get(
    '/api/agents/:id',
    {
      preValidation: read,
      schema: { tags, params: AgentIdParams, response: { 200: AgentSchema, ...errorResponses } },
    },
    async (request) => agentView(await agentOr404(request, request.params.id)),
  )

  app.put(
    '/api/agents/:id',
    {
      preValidation: write,
      schema: { tags, params: AgentIdParams, body: UpdateAgentBody, response: { 200: AgentSchema, ...errorResponses } },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await inTransaction(app, async (trx) => {
        const before = await agentOr404(request, id, trx)
        const after = (await updateAgent(trx, id, request.body, new Date().toISOString())) as AgentRow
        await emitAgentUpserted({ trx, outbox: app.outbox, from: request }, after)
        return { before, after }
      })
      request.audit.before = agentView(before)
      request.audit.after = agentView(after)
      return agentView(after)
    },
  )

  const statusRoute = {
    preValidation: write,
    schema: { tags, params: AgentIdParams, response: { 200: AgentSchema, ...errorResponses } },
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

  app.post(
    '/api/agents/:id/revoke-tokens',
    {
      // listed on the security surface, so security.write as well as the resource's own write
      preValidation: requireAccess('agents.write', 'security.write'),
      schema: { tags, params: AgentIdParams, response: { 200: AgentRevokeResult, ...errorResponses } },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await inTransaction(app, async (trx) => {
        const agent = await agentOr404(request, id, trx)
        const before = (await findUserById(trx, agent.user_id)) as UserRow
        const r = await revokeUserTokens(
          { trx, outbox: app.outbox, from: request },
          agent.user_id,
          'agents.revoke_tokens',
        )
        if (!r) throw new DirectoryErrors.AgentNotFound()
        return { before, after: r.user }
      })
      request.audit.before = {
        user_id: before.id,
        token_version: Number(before.token_version),
        token_valid_after: before.token_valid_after,
      }
      request.audit.after = {
        user_id: after.id,
        token_version: Number(after.token_version),
        token_valid_after: after.token_valid_after,
      }
      return { agent_id: id, token_version: Number(after.token_version) }
    },
  )
}
