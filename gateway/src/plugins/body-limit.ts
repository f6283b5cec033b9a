import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayErrors } from '../errors.ts'
import { isJsonType, jsonDeeperThan } from './json-depth.ts'

/**
 * Bodies are forwarded as the bytes the client sent (services parse and validate them). A declared
 * Content-Length over the limit is refused before authentication; a chunked body is cut off at the limit
 * while it is read. Either way 413. Routes carrying files have their own, larger limit. A JSON body nested deeper than `maxDepth` is refused with 400 before it
 * is proxied: no service parses, validates or audits a 20,000-level document.
 */
/**
 * Routes that carry files, with their own, larger limit (UPLOAD_BODY_LIMIT_BYTES): conversations' `/uploads` and
 * realtime-voice's recording audio (`/api/voice/recordings/:id/audio`). plugins/routes.ts gives these patterns the limit.
 */
export const LARGE_BODY_PATTERNS: readonly string[] = ['/uploads', '/uploads/*', '/api/voice/recordings/:id/audio']

const RECORDING_AUDIO = /^\/api\/voice\/recordings\/[^/?]+\/audio(?:\?|$)/

export const isLargeBody = (url: string) =>
  url === '/uploads' || url.startsWith('/uploads/') || url.startsWith('/uploads?') || RECORDING_AUDIO.test(url)

export const bodyLimitPlugin = fp(
  async (app: FastifyInstance, opts: { limit: number; uploadLimit: number; maxDepth: number }) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const declared = Number(request.headers['content-length'] ?? 0)
      const limit = isLargeBody(request.url) ? opts.uploadLimit : opts.limit
      done(declared > limit ? new GatewayErrors.BodyTooLarge() : undefined)
    })
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.limit }, (request, body, done) => {
      if (isJsonType(request.headers['content-type']) && jsonDeeperThan(body as Buffer, opts.maxDepth)) {
        request.gw.bodyRefused = `nested deeper than ${opts.maxDepth} levels`
        return done(new GatewayErrors.BodyTooDeep(opts.maxDepth), undefined)
      }
      done(null, body)
    })
  },
  { name: 'gateway-body-limit' },
)
