import type { FastifyInstance } from 'fastify'
import { deleteExpiredDenied } from '../db/denylist.repository.ts'
import { identityDb } from '../db/users.repository.ts'

/** One pass: removes denylist records whose token has expired anyway. Callable from tests. */
export async function cleanupDenylist(app: FastifyInstance, now: Date = new Date()): Promise<number> {
  return deleteExpiredDenied(identityDb(app), now.toISOString())
}

/**
 * Runs the cleanup every `intervalSeconds` from ready to close. Deleting expired rows is idempotent, so
 * replicas running it concurrently do no harm.
 */
export function installDenylistCleanup(app: FastifyInstance, intervalSeconds: number) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> = Promise.resolve()
  const tick = () => {
    running = cleanupDenylist(app)
      .then((n) => {
        if (n > 0) app.log.info({ removed: n }, 'denylist cleanup')
      })
      .catch((err) => app.log.warn({ err }, 'denylist cleanup failed'))
  }
  app.addHook('onReady', async () => {
    timer = setInterval(tick, intervalSeconds * 1000)
    timer.unref()
  })
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer)
    await running
  })
}
