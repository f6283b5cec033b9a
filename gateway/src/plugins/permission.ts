import { hasPermission, requiredPermission } from '@switchboard/auth'
import type { FastifyInstance } from 'fastify'
import { GatewayErrors } from '../errors.ts'

/** Resource permission of management paths: `<resource>.read` for GET/HEAD, `.write` otherwise. */
export function installPermissionCheck(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const needed = requiredPermission(request.method, request.url.split('?', 1)[0] ?? '')
    done(
      hasPermission(request.gw.principal!.permissions, needed) ? undefined : new GatewayErrors.PermissionDenied(needed),
    )
  })
}
