import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import type { LimitStore } from '../rate-limit-store.ts'

const LOGIN = '/api/v1/auth/login'

export interface LoginThrottleOptions {
  store: LimitStore
  /** failed logins per login name within the window before further attempts are refused */
  max: number
  windowMs: number
  /** the limit in force right now (its per-replica share while Redis is down) */
  effective(max: number): number
  metrics: GatewayMetrics
}

declare module 'fastify' {
  interface FastifyRequest {
    loginKey?: string
  }
}

/** The login name a body carries (`username`, which may be an email), normalised; undefined if none. */
function loginName(body: unknown): string | undefined {
  if (!Buffer.isBuffer(body) || body.length > 4096) return undefined
  try {
    const name = (JSON.parse(body.toString('utf8')) as { username?: unknown }).username
    return typeof name === 'string' && name.trim() ? name.trim().toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/**
 * Failed logins are limited per login name as well as per address: credential stuffing spreads over many
 * addresses but aims at the same accounts. Identity answers 401 alike for an unknown user and a wrong password,
 * so the count is of 401s per name; past `max` in the window the login is refused (429) before identity does
 * argon2 work, and a success clears the count.
 */
export function installLoginThrottle(app: FastifyInstance, opts: LoginThrottleOptions) {
  const keyOf = (name: string) => `login-fail|${createHash('sha256').update(name).digest('hex').slice(0, 32)}`
  const isLogin = (request: FastifyRequest) => request.method === 'POST' && request.url.split('?', 1)[0] === LOGIN

  app.addHook('preHandler', async (request, reply) => {
    if (!isLogin(request)) return
    const name = loginName(request.body)
    if (!name) return
    request.loginKey = keyOf(name)
    const { count, retryMs } = await opts.store.peek(request.loginKey)
    if (count < opts.effective(opts.max)) return
    const retry = Math.max(1, Math.ceil(retryMs / 1000))
    opts.metrics.rateLimitDropped.inc({ scope: 'login:username' })
    reply.header('retry-after', String(retry))
    throw new GatewayErrors.RateLimited('failed logins for this account', retry)
  })
  app.addHook('onResponse', (request, reply, done) => {
    const key = request.loginKey
    if (!key || !request.gw.proxied) return done()
    const status = reply.statusCode
    const counted =
      status === 401
        ? opts.store.hit([{ key, max: opts.max, windowMs: opts.windowMs }])
        : status === 200
          ? opts.store.reset(key)
          : undefined
    if (!counted) return done()
    counted.then(
      () => done(),
      (err: unknown) => {
        request.log.warn({ err }, 'failed-login count not updated')
        done()
      },
    )
  })
}
