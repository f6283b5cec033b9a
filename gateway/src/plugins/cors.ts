import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Allowlist CORS. A disallowed origin simply gets no Access-Control-* headers (the browser refuses it);
 * `*` is honoured but flagged by the security baseline. No credentials: tokens travel in Authorization.
 */
export const corsPlugin = fp(
  async (app: FastifyInstance, opts: { origins: string[] }) => {
    const any = opts.origins.includes('*')
    const allowed = new Set(opts.origins)
    await app.register(cors, {
      hook: 'onRequest',
      origin: any ? '*' : (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
      credentials: false,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: [
        'x-request-id',
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ],
      maxAge: 600,
    })
  },
  { name: 'gateway-cors' },
)
