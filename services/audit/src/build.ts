import { STREAMS } from '@switchboard/contracts'
import type { Subscription } from '@switchboard/events'
import { createService, type ServiceDeps, withPrincipal } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { AuditConfig } from './config.ts'
import type { AuditDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { startAuditConsumer } from './events/consume.ts'
import { auditRoutes } from './routes/audit.routes.ts'
import { createRetentionWorker, type RetentionWorker } from './workers/retention.ts'

/** The stream this service consumes (and, for its own writes, publishes to). */
export const AUDIT_STREAMS = [{ name: 'AUDIT', subjects: [...STREAMS.AUDIT.subjects] }]

declare module 'fastify' {
  interface FastifyInstance {
    /** the cleanup worker; `runOnce(now)` is what tests and operators call */
    auditRetention: RetentionWorker
  }
}

/** The audit service, un-listened: the consumer and the cleanup start on ready and stop on close. */
export async function build(config: AuditConfig, deps: ServiceDeps) {
  const app = await createService({ config, deps, migrations })
  try {
    await app.bus.ensureStreams(AUDIT_STREAMS)
  } catch (err) {
    await app.close()
    throw err
  }
  const db = app.db as Kysely<AuditDatabase>
  const retention = createRetentionWorker({
    db,
    logger: app.log,
    retentionDays: config.retention_days,
    batchSize: config.retention_batch_size,
    intervalMs: config.retention_interval_ms,
  })
  app.decorate('auditRetention', retention)
  let consumer: Subscription | undefined
  app.addHook('onReady', async () => {
    consumer = await startAuditConsumer({
      bus: app.bus,
      db,
      logger: app.log,
      maxDeliver: config.consumer_max_deliver,
      backoffMs: config.consumer_backoff_ms,
    })
    if (config.retention_enabled) retention.start()
  })
  app.addHook('preClose', async () => {
    await consumer?.stop()
    await retention.stop()
  })
  app.register(withPrincipal(config.internal_secret, auditRoutes))
  return app
}
