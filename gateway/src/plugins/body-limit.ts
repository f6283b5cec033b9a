import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayErrors } from '../errors.ts'

/**
 * Bodies are forwarded as the bytes the client sent (services parse and validate them). A declared
 * Content-Length over the limit is refused before authentication; a chunked body is cut off at the limit
 * while it is read. Either way 413.
 */
export const bodyLimitPlugin = fp(
  async (app: FastifyInstance, opts: { limit: number }) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const declared = Number(request.headers['content-length'] ?? 0)
      done(declared > opts.limit ? new GatewayErrors.BodyTooLarge() : undefined)
    })
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.limit }, (_request, body, done) => {
      done(null, body)
    })
  },
  { name: 'gateway-body-limit' },
)
