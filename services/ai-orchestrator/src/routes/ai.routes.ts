import { CommonErrors, callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { syncScope } from '../commands/knowledge-doc.commands.ts'
import { uploadDocument } from '../commands/provider.commands.ts'
import { answerQuery } from '../commands/query.commands.ts'
import { checkSession } from '../commands/session-reference.ts'
import type { AiService } from '../context.ts'
import { aiStatus, createHealthProbe } from '../queries/status.queries.ts'
import {
  AnswerView,
  BreakerResetQuery,
  Message,
  MetricsView,
  ProviderSwitchQuery,
  QueryBody,
  StatusView,
  UploadBody,
} from '../schemas/ai.schemas.ts'

const tags = ['ai']

/**
 * The provider switches and the breaker reset act for every tenant (the switch is shared, so is a breaker's state):
 * platform operators only — a service, or an administrator whose token is bound to no tenant. A tenant's staff is
 * refused (403), not silently obeyed for everyone.
 */
async function platformOnly(request: FastifyRequest) {
  const p = request.principal
  const platform = p.kind === 'service' || (p.kind === 'admin' && !p.token_tenant_id && !p.token_workspace_id)
  if (!platform)
    throw new CommonErrors.Forbidden('switches and breaker resets act for every tenant: platform operators only')
}

/**
 * `/api/v1/ai/*`: questions answered, the runtime's state, its switches. Staff and services reach it through the
 * gateway (its `/api/v1` class); `/api/v1` is not management, so these calls are not audited — except the platform
 * operators' switches and breaker resets (`config: { audit: true }`): who turned a provider off for everyone is asked.
 */
export const aiRoutes: RouteModule<AiService> = async (app, svc) => {
  const health = createHealthProbe()

  app.post(
    '/api/v1/ai/query',
    {
      schema: { tags, body: QueryBody, response: { 200: AnswerView, ...errorResponses(400, 401, 409, 502, 503, 504) } },
    },
    async (request) => {
      const caller = callerOf(request)
      if (request.body.session_id !== undefined) await checkSession(svc, caller, request.body.session_id)
      return answerQuery(svc, caller, request.body)
    },
  )

  app.get(
    '/api/v1/ai/status',
    { schema: { tags, response: { 200: StatusView, ...errorResponses(401) } } },
    async (request) => aiStatus(svc, health, callerOf(request).scope),
  )

  app.get(
    '/api/v1/ai/metrics',
    { schema: { tags, response: { 200: MetricsView, ...errorResponses(401) } } },
    async () => svc.usage.snapshot(),
  )

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.put(
      `/api/v1/ai/knowledge-provider/${verb}`,
      {
        config: { audit: true },
        preHandler: platformOnly,
        schema: {
          tags,
          querystring: ProviderSwitchQuery,
          response: { 200: Message, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const which = request.query.provider ?? 'all'
        request.audit = {
          ...request.audit,
          action: `ai_providers.${verb}`,
          resource_type: 'ai_providers',
          resource_id: which,
        }
        // the switch is by provider, shared by every scope's runtime and every replica (cache)
        await svc.runtimes.system.providers.setEnabled(which, enabled)
        const name = which === 'all' ? 'knowledge providers' : `knowledge provider ${which}`
        return { success: true, message: `${name} ${enabled ? 'enabled' : 'disabled'}` }
      },
    )
  }

  app.post(
    '/api/v1/ai/circuit-breaker/reset',
    {
      config: { audit: true },
      preHandler: platformOnly,
      schema: {
        tags,
        querystring: BreakerResetQuery,
        response: { 200: Message, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const which = request.query.breaker
      request.audit = {
        ...request.audit,
        action: 'ai_breakers.reset',
        resource_type: 'ai_breakers',
        resource_id: which ?? 'all',
      }
      // every runtime this replica knows (the system's and the scopes' own endpoints); the state is shared
      const all = svc.runtimes.known().flatMap((r) => (which ? [r.breakers[which]] : Object.values(r.breakers)))
      const targets = [...new Map(all.map((b) => [b.name, b])).values()]
      try {
        await Promise.all(targets.map((b) => b.reset()))
      } catch (err) {
        request.log.error({ err }, 'circuit breaker reset failed')
        throw new CommonErrors.Unavailable('the shared breaker state is unreachable; nothing was reset')
      }
      return { success: true, message: which ? `Circuit breaker ${which} reset` : 'Circuit breakers reset' }
    },
  )

  app.post(
    '/api/v1/ai/knowledge/upload',
    { schema: { tags, body: UploadBody, response: { 200: Message, ...errorResponses(400, 401, 403, 409, 502, 504) } } },
    async (request) => {
      const data = await uploadDocument(svc, callerOf(request).scope, {
        ...request.body,
        tags: request.body.tags ?? [],
      })
      return { success: true, message: 'Document uploaded successfully', data }
    },
  )

  app.post(
    '/api/v1/ai/knowledge/sync',
    { schema: { tags, response: { 200: Message, ...errorResponses(400, 401, 403, 409, 502, 504) } } },
    async (request) => {
      const data = await syncScope(svc, callerOf(request))
      return { success: true, message: 'Knowledge base synchronized successfully', data }
    },
  )
}
