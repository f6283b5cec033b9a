import type { Claims, RouteClass } from '@switchboard/auth'
import type { Principal, PrincipalKind } from '@switchboard/contracts'
import type { FastifyInstance } from 'fastify'

/** What the policy layers learn about a request, in the order they learn it. */
export interface GatewayRequestContext {
  /** owning service, set by the routing layer */
  service?: string
  claims?: Claims
  kind?: PrincipalKind
  /** the principal with its effective scope, set by the scope guard */
  principal?: Principal
  /** true once the request was handed to the upstream: later 403s are the service's, not ours */
  proxied: boolean
  /** why the body was refused unread (its audit record says so instead of storing it) */
  bodyRefused?: string
}

declare module 'fastify' {
  interface FastifyRequest {
    gw: GatewayRequestContext
  }
  interface FastifyContextConfig {
    routeClass?: RouteClass
  }
}

export function installRequestContext(app: FastifyInstance) {
  app.decorateRequest('gw', null as unknown as GatewayRequestContext)
  app.addHook('onRequest', (request, _reply, done) => {
    request.gw = { proxied: false }
    done()
  })
}
