import { IdentityErasureEvents, IdentityEvents, IdentityTenantErasureEvents, UNITS } from '@switchboard/contracts'
import { defineService } from '@switchboard/platform'
import { seedDemo } from './commands/seed.commands.ts'
import { type IdentityConfig, loadConfig } from './config.ts'
import { agentLoad } from './consumers/agent-load.consumer.ts'
import { agentRatings } from './consumers/agent-ratings.consumer.ts'
import { configOverrides } from './consumers/config-overrides.consumer.ts'
import { erasureDeadLetters } from './consumers/erasure-dlq.consumer.ts'
import { erasureReports } from './consumers/erasure-reports.consumer.ts'
import { tenantCacheErasure, tenantErasureReports } from './consumers/erasure-tenant.consumer.ts'
import { type IdentityExtras, identityExtras } from './context.ts'
import type { IdentityDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { agentRoutes } from './routes/agents.routes.ts'
import { authPublicRoutes } from './routes/auth.routes.ts'
import { authSelfRoutes } from './routes/auth-self.routes.ts'
import { customerExportRoutes } from './routes/customer-export.routes.ts'
import { customerRoutes } from './routes/customers.routes.ts'
import { effectiveConfigRoutes } from './routes/effective-config.routes.ts'
import { erasureRoutes } from './routes/erasure.routes.ts'
import { internalRoutes } from './routes/internal.routes.ts'
import { operatorRoutes } from './routes/operators.routes.ts'
import { securityTokenRoutes } from './routes/security-tokens.routes.ts'
import { securityUserStatusRoutes } from './routes/security-user-status.routes.ts'
import { securityUserRoutes } from './routes/security-users.routes.ts'
import { tenantErasureRoutes } from './routes/tenant-erasure.routes.ts'
import { tenantRoutes } from './routes/tenants.routes.ts'
import { workspaceRoutes } from './routes/workspaces.routes.ts'
import { seedOnStartup } from './startup.ts'
import { denylistCleanup } from './workers/denylist-cleanup.worker.ts'

/**
 * The identity service: users and operators, auth sessions and refresh rotation, the denylist, session risk, the
 * tenant/workspace registry, and the agents/customers directory (docs/architecture.md §1). Source of truth for
 * token state.
 */
export const identity = defineService<IdentityConfig, IdentityDatabase, IdentityExtras>({
  unit: UNITS.identity,
  loadConfig,
  migrations,
  events: [IdentityEvents, IdentityErasureEvents, IdentityTenantErasureEvents],
  context: identityExtras,
  routes: {
    public: [authPublicRoutes],
    protected: [
      authSelfRoutes,
      internalRoutes,
      effectiveConfigRoutes,
      securityUserRoutes,
      securityUserStatusRoutes,
      securityTokenRoutes,
      operatorRoutes,
      tenantRoutes,
      tenantErasureRoutes,
      workspaceRoutes,
      agentRoutes,
      customerRoutes,
      erasureRoutes,
      customerExportRoutes,
    ],
  },
  consumers: [
    agentRatings,
    configOverrides,
    agentLoad,
    ...erasureReports,
    ...tenantErasureReports,
    tenantCacheErasure,
    erasureDeadLetters,
  ],
  workers: [denylistCleanup],
  startup: seedOnStartup,
  seed: (svc, opts) => seedDemo(svc, opts),
})

/** An un-listened identity app: runners listen, tests `inject()`. */
export const build = identity.build
