import { UNITS } from '@switchboard/contracts'
import { defineService } from '@switchboard/platform'
import { type AuditConfig, loadConfig } from './config.ts'
import { auditRecorder } from './consumers/audit-recorder.consumer.ts'
import { AuditErasureEvents, erasureConsumer } from './consumers/erasure.consumer.ts'
import { AuditTenantErasureEvents, tenantErasureConsumer } from './consumers/erasure-tenant.consumer.ts'
import type { AuditDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { auditRoutes } from './routes/audit.routes.ts'
import { customerExportRoutes } from './routes/customer-export.routes.ts'
import { internalRoutes } from './routes/internal.routes.ts'
import { retentionWorker } from './workers/retention.worker.ts'

/**
 * The audit service: records every audit event of the fleet, answers reads on them and deletes them past
 * retention, and masks a person's data in them on an erasure. It emits no domain events but its erasure reports
 * (the audit records of its own writes come from the platform), and the
 * AUDIT stream it consumes is among the fleet's streams the platform ensures at start. The gateway hands its own
 * records over by HTTP (`/internal/audit/records`), so they do not depend on NATS.
 */
export const audit = defineService<AuditConfig, AuditDatabase>({
  unit: UNITS.audit,
  loadConfig,
  migrations,
  events: [AuditErasureEvents, AuditTenantErasureEvents],
  routes: { protected: [auditRoutes, internalRoutes, customerExportRoutes] },
  consumers: [auditRecorder, erasureConsumer, tenantErasureConsumer],
  workers: [retentionWorker],
})

/** An un-listened audit app: runners listen, tests `inject()`. */
export const build = audit.build
