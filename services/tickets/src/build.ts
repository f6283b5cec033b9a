import { STREAMS } from '@switchboard/contracts'
import { createService, type ServiceDeps, withPrincipal } from '@switchboard/platform'
import type { TicketsConfig } from './config.ts'
import { migrations } from './db/migrations/index.ts'
import { commentRoutes } from './routes/comments.routes.ts'
import { ticketRoutes } from './routes/tickets.routes.ts'

/** Streams this service publishes to: its own events, and the audit records of its writes. */
export const TICKETS_STREAMS = [
  { name: 'TICKETS', subjects: [...STREAMS.TICKETS.subjects] },
  { name: 'AUDIT', subjects: [...STREAMS.AUDIT.subjects] },
]

/** The tickets service, un-listened: main.ts listens, tests inject(). */
export async function build(config: TicketsConfig, deps: ServiceDeps) {
  const app = await createService({ config, deps, migrations })
  try {
    await app.bus.ensureStreams(TICKETS_STREAMS)
  } catch (err) {
    await app.close()
    throw err
  }
  app.register(withPrincipal(config.internal_secret, ticketRoutes, commentRoutes))
  return app
}
