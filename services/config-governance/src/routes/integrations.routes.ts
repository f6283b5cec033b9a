import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import {
  createIntegration,
  type IntegrationChange,
  removeIntegration,
  updateIntegration,
} from '../commands/integration.commands.ts'
import type { ConfigMode } from '../commands/integration-body.ts'
import type { ConfigGovernanceService } from '../context.ts'
import { findIntegration, listIntegrations } from '../db/integrations.repository.ts'
import { ConfigErrors } from '../errors.ts'
import { auditedBody, integrationView } from '../queries/integration.view.ts'
import {
  AppIntegration,
  CreateIntegrationBody,
  IntegrationIdParams,
  IntegrationPage,
  ListIntegrationsQuery,
  UpdateIntegrationBody,
} from '../schemas/integration.schemas.ts'

const tags = ['app-integrations']
const base = '/api/apps/integrations'

/**
 * A write refused before its handler knew the integration (the principal check, the platform's input guard and the
 * body's schema refuse before any route hook of a later stage; the handler's own refusals) keeps its body in the audit
 * record with every setting redacted, since only the integration's schema says which are secret. Set on the reply's
 * way out, which every refusal passes. The record's names are the platform's: `app_integrations.{create|update|delete}`.
 */
const redactUnknownSettings = {
  onSend: async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
    if (!('request' in request.audit)) request.audit.request = auditedBody(request.body)
    return payload
  },
}

/** What the audit record of a write that ran keeps: before/after views, the body with its secrets redacted. */
function record(request: FastifyRequest, change: IntegrationChange) {
  const id = change.after?.id ?? change.before?.id ?? ''
  request.audit = {
    ...request.audit,
    resource_id: id,
    before: change.before,
    after: change.after,
    request: auditedBody(request.body, change.secretKeys),
  }
}

/**
 * `/api/apps/integrations`: the apps of a workspace shown in the agent console (README "App integrations"). Reads
 * need integrations.read (agents have it), writes integrations.write (administrators); the gateway checks both. Every
 * query is bounded by the caller's scope: another scope's id is answered like a missing one.
 */
export const integrationRoutes: RouteModule<ConfigGovernanceService> = async (app, svc) => {
  app.get(
    base,
    {
      schema: {
        tags,
        querystring: ListIntegrationsQuery,
        response: { 200: IntegrationPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page: _p, page_size: _s, ...filters } = request.query
      const window = pageWindow(request.query)
      const { rows, total } = await listIntegrations(svc.db, svc.dialect, scopeOf(request), filters, window)
      return pageOf(
        rows.map((i) => integrationView(svc.box, i)),
        total,
        window,
      )
    },
  )

  app.get(
    `${base}/:id`,
    { schema: { tags, params: IntegrationIdParams, response: { 200: AppIntegration, ...errorResponses(401, 404) } } },
    async (request) => {
      const found = await findIntegration(svc.db, request.params.id, scopeOf(request))
      if (!found) throw new ConfigErrors.IntegrationNotFound(request.params.id)
      return integrationView(svc.box, found)
    },
  )

  app.post(
    base,
    {
      ...redactUnknownSettings,
      schema: {
        tags,
        body: CreateIntegrationBody,
        response: { 201: AppIntegration, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const change = await createIntegration(svc, callerOf(request), request.body)
      record(request, change)
      return reply.code(201).send(change.after)
    },
  )

  const update = (method: 'PUT' | 'PATCH', mode: ConfigMode) =>
    app.route({
      method,
      url: `${base}/:id`,
      ...redactUnknownSettings,
      schema: {
        tags,
        params: IntegrationIdParams,
        body: UpdateIntegrationBody,
        response: { 200: AppIntegration, ...errorResponses(400, 401, 404, 409) },
      },
      handler: async (request) => {
        const change = await updateIntegration(svc, callerOf(request), request.params.id, request.body, mode)
        record(request, change)
        return change.after
      },
    })
  update('PUT', 'replace')
  update('PATCH', 'merge')

  app.delete(
    `${base}/:id`,
    {
      ...redactUnknownSettings,
      schema: {
        tags,
        params: IntegrationIdParams,
        response: { 204: { description: 'deleted', type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      record(request, await removeIntegration(svc, callerOf(request), request.params.id))
      return reply.code(204).send()
    },
  )
}
