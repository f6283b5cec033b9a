import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { resourceIdOf, SCOPE_KINDS, scopeKeyOf } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import { effectiveView } from '../queries/effective.queries.ts'
import { EffectiveView } from '../schemas/effective.schemas.ts'

/**
 * `GET /api/security/config/{tenant|workspace}/effective` (security.read, the gateway checks): the caller's own
 * scope's effective configuration, each field with its value and source (README "Effective configuration"). The
 * scope is the caller's (scopeKeyOf, as every read here): no parameter names another tenant's.
 */
export const effectiveConfigRoutes: RouteModule<ConfigGovernanceService> = async (app, svc) => {
  for (const kind of SCOPE_KINDS) {
    app.get(
      `/api/security/config/${kind}/effective`,
      { schema: { tags: ['scoped-config'], response: { 200: EffectiveView, ...errorResponses(400, 401, 403) } } },
      async (request) => {
        const caller = callerOf(request)
        const key = scopeKeyOf(kind, caller)
        request.audit.resource_id = resourceIdOf(key)
        return effectiveView(svc, caller, key)
      },
    )
  }
}
