export * from './cache.ts'
export * from './config.ts'
export * from './db/columns.ts'
export * from './db/database.ts'
export * from './db/sqlite-driver.ts'
export * from './db/versions.ts'
export * from './http/app.ts'
export * from './http/audit.ts'
export * from './http/errors.ts'
export * from './http/health.ts'
export * from './http/metrics.ts'
export * from './http/openapi.ts'
export * from './http/pagination.ts'
export * from './http/principal.ts'
export * from './http/responses.ts'
export * from './http/service-client.ts'
export * from './ids.ts'
export * from './logger.ts'
export * from './masking.ts'
export * from './scope.ts'
export * from './scoped-config.ts'
export * from './secret-box.ts'
export type { ServiceApp, ServiceDeps } from './service/build.ts'
export { type ConsumerDef, PoisonMessageError } from './service/consumers.ts'
export type { RouteApp, RouteModule, ServiceContext } from './service/context.ts'
export { defineService, type ServiceDefinition, type ServiceDescriptor } from './service/descriptor.ts'
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
