import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { createSlaConfig, removeSlaConfig, updateSlaConfig } from '../commands/sla.commands.ts'
import type { TicketsService } from '../context.ts'
import { configsFor, findSlaConfig, listSlaConfigs } from '../db/sla-configs.repository.ts'
import { pickConfig } from '../domain/sla-rules.ts'
import { SlaErrors } from '../errors.ts'
import {
  CreateSlaConfigBody,
  IdParams,
  ListSlaConfigsQuery,
  PriorityParams,
  SlaConfig,
  SlaConfigPage,
  TierQuery,
  UpdateSlaConfigBody,
} from '../schemas/sla.schemas.ts'

const tags = ['sla']

/** `/api/sla/configs*`: one config per priority and customer tier in a scope. */
export const slaConfigRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.post(
    '/api/sla/configs',
    { schema: { tags, body: CreateSlaConfigBody, response: { 201: SlaConfig, ...errorResponses(400, 401, 409) } } },
    async (request, reply) => {
      const config = await createSlaConfig(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: config.id, after: config }
      return reply.code(201).send(config)
    },
  )

  app.get(
    '/api/sla/configs',
    {
      schema: { tags, querystring: ListSlaConfigsQuery, response: { 200: SlaConfigPage, ...errorResponses(400, 401) } },
    },
    async (request) => {
      const { page: _p, page_size: _s, ...filters } = request.query
      const window = pageWindow(request.query)
      const { rows, total } = await listSlaConfigs(svc.db, scopeOf(request), filters, window)
      return pageOf(rows, total, window)
    },
  )

  // The config a ticket of this priority (and customer tier) is measured by: its tier's own, else the catch-all.
  app.get(
    '/api/sla/configs/priority/:priority',
    {
      schema: {
        tags,
        params: PriorityParams,
        querystring: TierQuery,
        response: { 200: SlaConfig, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      const tier = request.query.customer_tier ?? ''
      const { priority } = request.params
      // an unscoped admin has no single scope to pick in: nothing matches
      const configs = scope.tenant_id && scope.workspace_id ? await configsFor(svc.db, scope, priority) : []
      const config = pickConfig(configs, priority, tier)
      if (!config) throw new SlaErrors.NoConfigFor(priority, tier || "''")
      return config
    },
  )

  app.get(
    '/api/sla/configs/:id',
    { schema: { tags, params: IdParams, response: { 200: SlaConfig, ...errorResponses(401, 404) } } },
    async (request) => {
      const config = await findSlaConfig(svc.db, request.params.id, scopeOf(request))
      if (!config) throw new SlaErrors.ConfigNotFound(request.params.id)
      return config
    },
  )

  app.put(
    '/api/sla/configs/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateSlaConfigBody,
        response: { 200: SlaConfig, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const { before, after } = await updateSlaConfig(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.delete(
    '/api/sla/configs/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: { 204: { description: 'deleted', type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const before = await removeSlaConfig(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: before.id, before }
      return reply.code(204).send()
    },
  )
}
