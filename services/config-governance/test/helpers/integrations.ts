import type { Envelope } from '@switchboard/contracts'
import { type StorageMode, waitFor } from '@switchboard/testing'
import type { Test } from 'tap'
import type { ConfigGovernanceService } from '../../src/context.ts'
import { ALICE, as, governanceApp } from './app.ts'

/** Records the integration events and audit records that reach the bus from now on. */
export async function recordEvents(bus: ConfigGovernanceService['bus']) {
  const events: Envelope[] = []
  const subs = [
    await bus.subscribe('config.integration.>', async (d) => {
      events.push(d.envelope)
    }),
    await bus.subscribe('audit.>', async (d) => {
      events.push(d.envelope)
    }),
  ]
  return {
    events,
    /** waits for an event of `type` whose data satisfies `match` */
    find<T = any>(type: string, match: (data: T) => boolean = () => true) {
      return waitFor(() => events.find((e) => e.type === type && match(e.data as T)) as Envelope<T> | undefined)
    },
    /** the audit record of a write, by action and a test on the record */
    async audit(action: string, match: (record: Record<string, any>) => boolean = () => true) {
      const e = await waitFor(() =>
        events.find(
          (e) => e.type === 'audit.record.recorded' && (e.data as any).action === action && match(e.data as any),
        ),
      )
      return e.data as Record<string, any>
    },
    async stop() {
      for (const s of subs) await s.stop()
    },
  }
}

/** A config-governance app, a recorder of its events, and a request helper; Alice administers acme/support. */
export async function integrationsFixture(t: Test, mode: StorageMode, env: Record<string, string> = {}) {
  const { app, svc } = await governanceApp(t, mode, env)
  const rec = await recordEvents(svc.bus)
  t.teardown(() => rec.stop())
  const alice = await as(ALICE)
  const call = (headers: Record<string, string>, method: string, url: string, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  return { app, svc, rec, alice, call }
}

export const BASE = '/api/apps/integrations'

/** A schema with a secret of each kind: marked `x-secret`, `format: password`, and named like one. */
export const CRM_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', enum: ['eu', 'us'] },
    timeout: { type: 'integer', minimum: 1, maximum: 60 },
    client_ref: { type: 'string', 'x-secret': true },
    signing: { type: 'string', format: 'password' },
    api_token: { type: 'string' },
  },
  required: ['region'],
}
