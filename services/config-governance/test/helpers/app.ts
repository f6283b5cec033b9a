import type { Principal } from '@switchboard/contracts'
import {
  ACME_ADMIN,
  principalHeader,
  type StorageMode,
  silentLogger,
  storageFixture,
  testPrincipal,
} from '@switchboard/testing'
import type { Test } from 'tap'
import { configGovernance } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'

export const INTERNAL_SECRET = 'test-internal-secret-0123456789'

/** Two administrators of acme/support: dual control needs a second person. */
export const ALICE = testPrincipal({ user_id: 'alice' }, ACME_ADMIN)
export const BOB = testPrincipal({ user_id: 'bob' }, ACME_ADMIN)
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/** A config-governance app on isolated storage, closed and cleaned up when the test ends. */
export async function governanceApp(t: Test, mode: StorageMode, env: Record<string, string> = {}) {
  const store = await storageFixture(t, mode, 'cg')
  const config = {
    ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent', PORTAL_CACHE_MS: '0', ...env }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
  }
  const app = await configGovernance.build(config, { logger: silentLogger() })
  t.teardown(() => app.close())
  await app.ready()
  return { app, store, svc: configGovernance.contextOf(app) }
}
