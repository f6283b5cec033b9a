import { createService, type ServiceDeps, withPrincipal } from '@switchboard/platform'
import type { FastifyInstance } from 'fastify'
import type { IdentityConfig } from './config.ts'
import { installIdentityContext } from './context.ts'
import { migrations } from './db/migrations/index.ts'
import { agentRoutes } from './routes/agents.routes.ts'
import { authPublicRoutes, authSelfRoutes } from './routes/auth.routes.ts'
import { customerRoutes } from './routes/customers.routes.ts'
import { internalRoutes } from './routes/internal.routes.ts'
import { securityTokenRoutes } from './routes/security-tokens.routes.ts'
import { securityUserStatusRoutes } from './routes/security-user-status.routes.ts'
import { securityUserRoutes } from './routes/security-users.routes.ts'
import { installSeeding } from './seed.ts'
import { installDenylistCleanup } from './workers/denylist-cleanup.ts'

/** identity as an un-listened Fastify app: infrastructure, shared context, routes, workers. */
export async function build(config: IdentityConfig, deps: ServiceDeps) {
  const app = await createService({ config, deps, migrations })
  // The helpers below take a plain FastifyInstance; the app's own type differs only in logger and type provider.
  const base = app as unknown as FastifyInstance
  await installIdentityContext(base, config)

  // Anonymous routes.
  app.register(authPublicRoutes)

  // Routes that need the gateway's principal: one line per route plugin.
  const protectedRoutes = [
    authSelfRoutes,
    internalRoutes,
    securityUserRoutes,
    securityUserStatusRoutes,
    securityTokenRoutes,
    agentRoutes,
    customerRoutes,
  ]
  app.register(withPrincipal(config.internal_secret, ...protectedRoutes))

  installDenylistCleanup(base, config.workers.denylist_cleanup_interval_seconds)
  if (config.seed.enabled) installSeeding(base, config.seed)
  return app
}

export type IdentityApp = Awaited<ReturnType<typeof build>>
