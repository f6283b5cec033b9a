import { ConfigEvents, IntegrationEvents, UNITS } from '@switchboard/contracts'
import { createSecretBox, createServiceClient, defineService } from '@switchboard/platform'
import { type ConfigGovernanceConfig, loadConfig } from './config.ts'
import { ConfigTenantErasureEvents, tenantErasureConsumer } from './consumers/erasure-tenant.consumer.ts'
import type { ConfigGovernanceParts } from './context.ts'
import type { ConfigGovernanceDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { createPortalResolver } from './queries/portal.queries.ts'
import { effectiveConfigRoutes } from './routes/effective.routes.ts'
import { integrationRoutes } from './routes/integrations.routes.ts'
import { internalRoutes } from './routes/internal.routes.ts'
import { portalRoutes } from './routes/portal.routes.ts'
import { scopedConfigRoutes } from './routes/scoped-config.routes.ts'

/**
 * The config-governance service (docs/architecture.md §1): per-tenant and per-workspace overrides of the portal,
 * the LLM, the knowledge providers and session risk, changed under governance (change risk, dual-control approval,
 * verification, history, rollback) and announced with `config.scope.changed`, which the services that apply them
 * follow (identity: session risk). It answers the public portal's config itself, and keeps the app integrations of
 * each workspace (`/api/apps/integrations`: scoped records whose settings hold credentials, sealed with the same key).
 */
export const configGovernance = defineService<ConfigGovernanceConfig, ConfigGovernanceDatabase, ConfigGovernanceParts>({
  unit: UNITS['config-governance'],
  loadConfig,
  migrations,
  events: [ConfigEvents, IntegrationEvents, ConfigTenantErasureEvents],
  context(base) {
    if (base.config.encryption_key_derived && base.config.environment !== 'development') {
      base.log.warn(
        'CONFIG_ENCRYPTION_KEY is not set: stored secrets are sealed under a key derived from INTERNAL_SECRET',
      )
    }
    if (base.config.portal.widget.allowed_origins.length === 0 && base.config.environment === 'production') {
      base.log.warn(
        'PORTAL_WIDGET_ALLOWED_ORIGINS is empty: a workspace that sets no list of its own lets any site embed its widget',
      )
    }
    const box = createSecretBox(base.config.encryption_key, base.config.previous_encryption_keys)
    const portal = createPortalResolver(
      base.db,
      base.config.portal,
      base.config.portal_runtime,
      base.config.portal_cache_ms,
    )
    const client = (service: string, urls: string[]) =>
      urls.length > 0
        ? createServiceClient({
            service,
            urls,
            internalSecret: base.config.internal_secret,
            self: 'config-governance',
            timeoutMs: 5000,
          })
        : undefined
    const owners = {
      identity: client('identity', base.config.identity_urls),
      'ai-orchestrator': client('ai-orchestrator', base.config.ai_orchestrator_urls),
    }
    return { box, portal, owners }
  },
  // a tenant's erasure: its governed documents and their history emptied of people, its integrations deleted
  consumers: [tenantErasureConsumer],
  routes: {
    protected: [scopedConfigRoutes, effectiveConfigRoutes, integrationRoutes, internalRoutes],
    public: [portalRoutes],
  },
  shutdown: async (svc) => {
    await Promise.all(Object.values(svc.owners).map((c) => c?.close()))
  },
})

/** An un-listened config-governance app: runners listen, tests `inject()`. */
export const build = configGovernance.build
