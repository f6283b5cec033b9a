import type { Storage } from '@switchboard/testing'
import type { ServiceBaseConfig } from '../../src/index.ts'

export const TEST_SECRET = 'internal-secret-for-tests-0123456789'

/** A test service's whole base config on `store`'s engines (silent unless `over` says otherwise). */
export function baseConfig(service: string, store: Storage, over: Partial<ServiceBaseConfig> = {}): ServiceBaseConfig {
  return {
    service,
    host: '127.0.0.1',
    port: 0,
    log_level: 'silent',
    environment: 'test',
    internal_secret: TEST_SECRET,
    body_limit_bytes: 65_536,
    inbox_retention_days: 7,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
    ...over,
  } as ServiceBaseConfig
}
