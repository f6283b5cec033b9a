export * from './cache.ts'
export * from './config.ts'
export * from './db/columns.ts'
export * from './db/database.ts'
export * from './db/sqlite-driver.ts'
export * from './db/versions.ts'
export * from './http/app.ts'
export * from './http/audit.ts'
export * from './http/conversations-client.ts'
export * from './http/errors.ts'
export * from './http/health.ts'
export * from './http/html-page.ts'
export * from './http/metrics.ts'
export * from './http/openapi.ts'
export * from './http/pagination.ts'
export * from './http/principal.ts'
export * from './http/request-id.ts'
export * from './http/responses.ts'
export * from './http/service-client.ts'
export * from './http/tracing.ts'
export * from './ids.ts'
export * from './logger.ts'
export * from './masking.ts'
export * from './scope.ts'
export * from './scoped-config.ts'
export * from './secret-box.ts'
export type { ServiceApp, ServiceDeps } from './service/build.ts'
export {
  type ApplyDeps,
  applyDeliveries,
  type BatchOptions,
  type ConsumerTx,
  type Outcome,
} from './service/consumer-batch.ts'
export {
  type ConsumerDef,
  type HandlerConsumer,
  type InboxConsumer,
  inboxPlan,
  PoisonMessageError,
  replayInbox,
  type UntypedConsumer,
} from './service/consumers.ts'
export type { OutboxValues, RouteApp, RouteModule, ServiceContext } from './service/context.ts'
export { customerExportRoute } from './service/customer-export-route.ts'
export { defineService, type ServiceDefinition, type ServiceDescriptor } from './service/descriptor.ts'
export { type ConsumedEvent, type EventHandler, on } from './service/event-handlers.ts'
export { LISTENING_MESSAGE, type Runnable, runService } from './service/run.ts'
export {
  createStartup,
  installStartup,
  type StartStep,
  type Startup,
  type StartupSource,
  type StartupState,
} from './service/startup.ts'
export { EventContractError, type Tx } from './service/transaction.ts'
export type { WorkerDef, Workers } from './service/workers.ts'
export * from './storable-text.ts'
export * from './time-bounds.ts'
export * from './tracing.ts'
