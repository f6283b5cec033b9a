import { ConversationEvents, UNITS } from '@switchboard/contracts'
import { createServiceClient, defineService } from '@switchboard/platform'
import { createBlobStore } from './blob/create.ts'
import { processQueue } from './commands/queue.commands.ts'
import { createQueueKicks } from './commands/queue-kicks.ts'
import { type ConversationsConfig, loadConfig } from './config.ts'
import { agentsProjection } from './consumers/agents.consumer.ts'
import { customerTickets } from './consumers/customer-tickets.consumer.ts'
import { customersProjection } from './consumers/customers.consumer.ts'
import { ConversationErasureEvents, erasureConsumer } from './consumers/erasure.consumer.ts'
import { ConversationTenantErasureEvents, tenantErasureConsumer } from './consumers/erasure-tenant.consumer.ts'
import { ticketLinks } from './consumers/ticket-links.consumer.ts'
import type { ConversationsExtras } from './context.ts'
import type { ConversationsDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { createQueueMetrics } from './metrics/queue.metrics.ts'
import { agentRoutes } from './routes/agents.routes.ts'
import { customerActivityRoutes } from './routes/customer-activity.routes.ts'
import { customerExportRoutes } from './routes/customer-export.routes.ts'
import { inboxRoutes } from './routes/inbox.routes.ts'
import { internalRoutes } from './routes/internal.routes.ts'
import { sessionRoutes } from './routes/sessions.routes.ts'
import { shiftRoutes } from './routes/shifts.routes.ts'
import { transferRoutes } from './routes/transfer.routes.ts'
import { uploadRoutes } from './routes/uploads.routes.ts'
import { widgetRoutes } from './routes/widget.routes.ts'
import { workspaceRoutes } from './routes/workspace.routes.ts'
import { queueWorker } from './workers/queue.worker.ts'

/**
 * The conversations service: sessions and messages, transfer, the waiting queue and routing, shifts and uploads
 * (docs/architecture.md §1, §5). The only writer of sessions and messages; realtime, AI and statistics follow
 * its events.
 */
export const conversations = defineService<ConversationsConfig, ConversationsDatabase, ConversationsExtras>({
  unit: UNITS.conversations,
  loadConfig,
  migrations,
  events: [ConversationEvents, ConversationErasureEvents, ConversationTenantErasureEvents],
  context: (svc) => ({
    blobs: createBlobStore(svc),
    queueKicks: createQueueKicks((scope, signal) => processQueue(svc, scope, { signal }), svc.log),
    queueMetrics: createQueueMetrics(svc.metrics.registry),
    tickets:
      svc.config.tickets_urls.length > 0
        ? createServiceClient({
            service: 'tickets',
            urls: svc.config.tickets_urls,
            internalSecret: svc.config.internal_secret,
            self: 'conversations',
          })
        : undefined,
  }),
  routes: {
    protected: [
      sessionRoutes,
      inboxRoutes,
      workspaceRoutes,
      transferRoutes,
      shiftRoutes,
      internalRoutes,
      agentRoutes,
      customerActivityRoutes,
      customerExportRoutes,
    ],
    optional: [uploadRoutes],
    public: [widgetRoutes],
  },
  consumers: [
    agentsProjection,
    customersProjection,
    ticketLinks,
    customerTickets,
    erasureConsumer,
    tenantErasureConsumer,
  ],
  workers: [queueWorker],
  // after the workers stopped, while consumers still run: a kick they make now is refused, running passes end
  shutdown: async (svc) => {
    await svc.queueKicks.close()
    await svc.tickets?.close()
  },
})

/** An un-listened conversations app: runners listen, tests `inject()`. */
export const build = conversations.build
