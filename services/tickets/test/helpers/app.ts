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
import { tickets } from '../../src/build.ts'

export const INTERNAL_SECRET = TEST_INTERNAL_SECRET

/** The caller these tests start from: an agent of acme/support who may read and write tickets. */
const ACME_AGENT: Principal = {
  ...ACME_ADMIN,
  user_id: 'agent-1',
  kind: 'agent',
  roles: ['agent'],
  permissions: ['tickets.read', 'tickets.write'],
}

export const principal = (overrides: Partial<Principal> = {}) => testPrincipal(overrides, ACME_AGENT)

/** The scope of the agent above. */
export const ACME_SUPPORT = { tenant_id: 'acme', workspace_id: 'support' }

/** The header the gateway would add for this principal. */
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/**
 * A tickets app on isolated storage, closed and cleaned up when the test ends. `bus` lets a test hand in
 * its own bus (made for this storage, so on the same NATS prefix), closed after the app.
 */
export function ticketsApp(t: Test, mode: StorageMode, opts: { bus?: (store: Storage) => Promise<EventBus> } = {}) {
  return serviceApp(t, tickets, mode, { label: 'tk', ...opts })
}

/** Custom fields the tests name, made through the API in the scope of `headers`' principal. */
export async function defineFields(
  app: { inject(o: object): Promise<{ statusCode: number; body: string }> },
  headers: Record<string, string>,
  fields: Array<Record<string, unknown>>,
) {
  for (const field of fields) {
    const res = await app.inject({ method: 'POST', url: '/api/custom-fields', headers, payload: field })
    if (res.statusCode !== 201) throw new Error(`custom field ${String(field.key)}: ${res.statusCode} ${res.body}`)
  }
}
