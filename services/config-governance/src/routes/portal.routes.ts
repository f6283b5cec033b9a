import type { RouteModule } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import { PortalConfigView, PortalQuery } from '../schemas/governance.schemas.ts'

/**
 * `GET /public/portal/config`: the portal's public face (brand, colours, locales, support email — never a secret)
 * for the scope the page names (`?tenant_id=&workspace_id=`); an anonymous caller naming none gets the system's.
 */
export const portalRoutes: RouteModule<ConfigGovernanceService> = async (app, svc) => {
  app.get(
    '/public/portal/config',
    { schema: { tags: ['portal'], querystring: PortalQuery, response: { 200: PortalConfigView } } },
    async (request) => svc.portal.resolve(request.query.tenant_id ?? '', request.query.workspace_id ?? ''),
  )
}
