import { errorResponses, type RouteModule } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import { ConfigErrors } from '../errors.ts'
import { EmbedPolicy, EmbedPolicyQuery } from '../schemas/governance.schemas.ts'

/**
 * `GET /internal/widget/embed-policy?tenant_id=&workspace_id=`: the sites a scope's widget may be embedded in, as
 * the portal resolves them (system ← tenant ← workspace ← runtime, the same short memory). The realtime hub asks
 * before a visitor's first message or join; service principals only, never routed by the gateway.
 */
export const internalRoutes: RouteModule<ConfigGovernanceService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new ConfigErrors.ServiceOnly(request.url.split('?', 1)[0])
  })

  app.get(
    '/internal/widget/embed-policy',
    {
      schema: {
        hide: true,
        querystring: EmbedPolicyQuery,
        response: { 200: EmbedPolicy, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { tenant_id, workspace_id } = request.query
      const portal = await svc.portal.resolve(tenant_id, workspace_id)
      return { tenant_id, workspace_id, allowed_origins: portal.widget.allowed_origins }
    },
  )
}
