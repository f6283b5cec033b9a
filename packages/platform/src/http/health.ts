import type { StartupSource } from '../service/startup.ts'
import type { AnyApp } from './app.ts'

export type ReadinessCheck = () => Promise<boolean>

/**
 * What a service adds to `/ready` as `details` (a projection's lag, say): information for operators that never
 * fails readiness — a lagging read model must not take every replica out of rotation while it catches up. Set once
 * the service's context exists (`source.get`); a failing or slow source shows as `{error}` in place of its details.
 */
export interface ReadyDetails {
  get?: () => Promise<unknown>
}

/**
 * `/health`: the process is alive — at once, while the unit still starts. `/ready`: the unit's start is done (its
 * consumers attached: `startup`, shown while it is not), every dependency of this service answers, and the service
 * is not stopping (503 from the moment close begins, so load balancers drain it first).
 */
export function installHealth(
  app: AnyApp,
  checks: Record<string, ReadinessCheck>,
  timeoutMs = 2000,
  details: ReadyDetails = {},
  startup: StartupSource = {},
) {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.get('/health', async () => ({ status: 'ok' }))
  app.get('/ready', async (_request, reply) => {
    if (closing) return reply.code(503).send({ status: 'stopping', checks: {} })
    const results: Record<string, 'ok' | 'failed'> = {}
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        results[name] = (await withTimeout(check(), timeoutMs).catch(() => false)) ? 'ok' : 'failed'
      }),
    )
    const start = startup.state?.()
    const started = !start || start.status === 'started'
    const ready = started && Object.values(results).every((r) => r === 'ok')
    const body: Record<string, unknown> = {
      status: ready ? 'ready' : started ? 'not_ready' : 'starting',
      checks: results,
    }
    if (!started) body.startup = start
    if (details.get) {
      body.details = await withTimeout(details.get(), timeoutMs).catch((err: Error) => ({ error: err.message }))
    }
    return reply.code(ready ? 200 : 503).send(body)
  })
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms)
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })
}
