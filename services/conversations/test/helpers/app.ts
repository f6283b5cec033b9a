import type { Principal } from '@switchboard/contracts'
import type { EventBus } from '@switchboard/events'
import {
  ACME_ADMIN,
  principalHeader,
  type Storage,
  type StorageMode,
  serviceApp,
  TEST_INTERNAL_SECRET,
  testPrincipal,
} from '@switchboard/testing'
import type { Test } from 'tap'
import { conversations } from '../../src/build.ts'

export const INTERNAL_SECRET = TEST_INTERNAL_SECRET

/** An agent of acme/support who may read and write the workspace and transfers. */
const ACME_AGENT: Principal = {
  ...ACME_ADMIN,
  user_id: 'agent-1',
  kind: 'agent',
  roles: ['agent'],
  permissions: ['workspace.read', 'workspace.write', 'session_transfer.read', 'session_transfer.write'],
}

export const principal = (overrides: Partial<Principal> = {}) => testPrincipal(overrides, ACME_AGENT)
/** The hub (realtime-voice) or another service: a service principal of acme/support. */
export const servicePrincipal = (overrides: Partial<Principal> = {}) =>
  testPrincipal({ user_id: 'realtime-voice', kind: 'service', roles: [], permissions: ['*'], ...overrides }, ACME_ADMIN)

/** The header the gateway would add for this principal. */
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/**
 * A conversations app on isolated storage, closed and cleaned up when the test ends. `env` adds settings;
 * `bus` lets a test hand in its own bus (made for this storage, so on the same NATS prefix); `store` builds
 * another replica on storage a first app already uses.
 */
export function conversationsApp(
  t: Test,
  mode: StorageMode,
  opts: { env?: NodeJS.ProcessEnv; bus?: (store: Storage) => Promise<EventBus>; store?: Storage } = {},
) {
  return serviceApp(t, conversations, mode, {
    label: 'cv',
    ...opts,
    env: (store) => ({
      DB_DRIVER: store.mode === 'sqlite' ? 'sqlite' : 'postgres',
      // a person a test names but never made is refused after this short look (references.ts), not 2 s
      REFERENCE_WAIT_MS: '50',
      ...opts.env,
    }),
  })
}
