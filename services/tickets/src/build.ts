import { TicketEvents, TicketSatisfactionEvents, TicketSlaEvents, UNITS } from '@switchboard/contracts'
import { createServiceClient, defineService } from '@switchboard/platform'
import { loadConfig, type TicketsConfig } from './config.ts'
import { directoryProjection } from './consumers/directory.consumer.ts'
import { erasureConsumer, TicketErasureEvents } from './consumers/erasure.consumer.ts'
import { TicketTenantErasureEvents, tenantErasureConsumer } from './consumers/erasure-tenant.consumer.ts'
import { slaConversationsConsumer } from './consumers/sla-conversations.consumer.ts'
import { slaDirectoryConsumer } from './consumers/sla-directory.consumer.ts'
import { ticketSessionsProjection } from './consumers/ticket-sessions.consumer.ts'
import type { TicketsParts } from './context.ts'
import type { TicketsDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { commentRoutes } from './routes/comments.routes.ts'
import { csatRoutes } from './routes/csat.routes.ts'
import { customFieldRoutes } from './routes/custom-fields.routes.ts'
import { customerExportRoutes } from './routes/customer-export.routes.ts'
import { internalRoutes } from './routes/internal.routes.ts'
import { macroRoutes } from './routes/macros.routes.ts'
import { satisfactionRoutes } from './routes/satisfaction.routes.ts'
import { slaRoutes } from './routes/sla.routes.ts'
import { slaConfigRoutes } from './routes/sla-configs.routes.ts'
import { surveyRoutes } from './routes/survey.routes.ts'
import { ticketBulkRoutes } from './routes/ticket-bulk.routes.ts'
import { ticketExportRoutes } from './routes/ticket-export.routes.ts'
import { ticketInsightRoutes } from './routes/ticket-insights.routes.ts'
import { ticketSettingsRoutes } from './routes/ticket-settings.routes.ts'
import { ticketRoutes } from './routes/tickets.routes.ts'
import { widgetTicketRoutes } from './routes/widget-tickets.routes.ts'
import { countCompactionWorker } from './workers/count-compaction.worker.ts'
import { slaMonitorWorker } from './workers/sla-monitor.worker.ts'

/**
 * The tickets service: tickets, comments, custom fields, SLA (configs, violations, the monitor), satisfaction and
 * surveys (the public CSAT page: its token is its credential), macros (docs/architecture.md §1).
 */
export const tickets = defineService<TicketsConfig, TicketsDatabase, TicketsParts>({
  unit: UNITS.tickets,
  loadConfig,
  migrations,
  events: [TicketEvents, TicketSlaEvents, TicketSatisfactionEvents, TicketErasureEvents, TicketTenantErasureEvents],
  context: (base) => {
    const urls = base.config.identity_urls
    if (urls.length === 0) base.log.warn('UPSTREAM_IDENTITY is not set: the widget cannot leave messages as tickets')
    const identity =
      urls.length > 0
        ? createServiceClient({
            service: 'identity',
            urls,
            internalSecret: base.config.internal_secret,
            self: 'tickets',
          })
        : undefined
    return { identity }
  },
  routes: {
    protected: [
      ticketSettingsRoutes,
      ticketRoutes,
      commentRoutes,
      ticketBulkRoutes,
      ticketExportRoutes,
      ticketInsightRoutes,
      customFieldRoutes,
      slaConfigRoutes,
      slaRoutes,
      satisfactionRoutes,
      surveyRoutes,
      macroRoutes,
      internalRoutes,
      customerExportRoutes,
    ],
    public: [csatRoutes, widgetTicketRoutes],
  },
  // identity's directory and the conversations tickets continue, as projections (rebuilt by replay)
  consumers: [
    directoryProjection,
    ticketSessionsProjection,
    slaDirectoryConsumer,
    slaConversationsConsumer,
    erasureConsumer,
    tenantErasureConsumer,
  ],
  workers: [slaMonitorWorker, countCompactionWorker],
  shutdown: async (svc) => {
    await svc.identity?.close()
  },
})

/** An un-listened tickets app: runners listen, tests `inject()`. */
export const build = tickets.build
