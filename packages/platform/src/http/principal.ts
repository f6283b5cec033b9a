import { createInternalPrincipalVerifier } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import type { AnyApp } from './app.ts'
import { CommonErrors } from './errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal
  }
}

/**
 * Policy by encapsulation: routes registered inside a context that called this need the principal the
 * gateway signed; routes outside it (public, health) do not. Anything else is refused before a handler runs.
 * `optional`: the principal is verified when the gateway sent one (a caller with a token) and absent otherwise
 * (an anonymous caller of a path the gateway lets through without a token, e.g. `/uploads`).
 */
export function requirePrincipal(app: AnyApp, internalSecret: string, opts: { optional?: boolean } = {}) {
  if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', null as unknown as Principal)
  // verified tokens are cached (the gateway reuses one per access token), so the hot path skips the HMAC
  const verify = createInternalPrincipalVerifier(internalSecret)
  app.addHook('onRequest', async (request) => {
    const token = request.headers[PRINCIPAL_HEADER]
    // optional: an anonymous caller (no header) goes on with `request.principal` null; a bad header never does
    if (opts.optional && token === undefined) return
    if (typeof token !== 'string' || token.length === 0) throw new CommonErrors.PrincipalMissing()
    try {
      request.principal = await verify(token)
    } catch {
      throw new CommonErrors.PrincipalMissing()
    }
  })
}
