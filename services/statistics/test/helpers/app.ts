import { Value } from '@sinclair/typebox/value'
import type { EventDef, Principal } from '@switchboard/contracts'
import { appliedOf, newEnvelope } from '@switchboard/events'
import type { Scope } from '@switchboard/platform'
import {
  ACME_ADMIN,
  principalHeader,
  type StorageMode,
  serviceApp,
  TEST_INTERNAL_SECRET,
  testPrincipal,
  waitFor,
} from '@switchboard/testing'
import type { Kysely } from 'kysely'
import type { Test } from 'tap'
import { statistics } from '../../src/build.ts'
import type { StatisticsService } from '../../src/context.ts'

export const INTERNAL_SECRET = TEST_INTERNAL_SECRET

export const ACME: Scope = { tenant_id: 'acme', workspace_id: 'support' }
export const GLOBEX: Scope = { tenant_id: 'globex', workspace_id: 'main' }

/** A supervisor of acme/support who may read statistics. */
export const supervisor = (overrides: Partial<Principal> = {}) =>
  testPrincipal(
    { user_id: 'sup-1', kind: 'agent', roles: ['supervisor'], permissions: ['statistics.read'], ...overrides },
    ACME_ADMIN,
  )

/** A platform administrator without a scope: the administrator view (an empty scope is no restriction). */
export const platformAdmin = () => testPrincipal({ user_id: 'root', tenant_id: '', workspace_id: '' }, ACME_ADMIN)

export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/**
 * A statistics app on isolated storage, closed and cleaned up when the test ends. `started: false` goes on as soon
 * as it is ready, its consumers attaching in the background (a replica starting with a backlog).
 */
export function statisticsApp(t: Test, mode: StorageMode, { started = true } = {}) {
  return serviceApp(t, statistics, mode, { label: 'st', until: started ? 'started' : 'ready' })
}

/** An event as its owner would publish it, checked against its contract; `occurred_at` may be set. */
export async function publish<D extends EventDef>(
  svc: StatisticsService,
  def: D,
  data: unknown,
  scope: Scope = ACME,
  occurred_at?: string,
) {
  if (!Value.Check(def.data, data)) {
    throw new Error(`test payload does not match ${def.type}: ${Value.Errors(def.data, data).First()?.path}`)
  }
  const envelope = newEnvelope({ type: def.type, ...scope, actor: { user_id: 'admin-1', kind: 'admin' }, data })
  if (occurred_at) envelope.occurred_at = occurred_at
  await svc.bus.publish(def.type, envelope)
  return envelope
}

/** Resolves once `consumer` has applied the event (its inbox row). */
export async function applied(svc: StatisticsService, consumer: string, eventId: string) {
  await waitFor(async () => (await appliedOf(svc.db, consumer, [eventId])).has(eventId))
}

/**
 * A context of `a` whose bus publishes every event to `b` and then to `a`, the same envelope (each app has its own
 * schema and streams), and the ids of the events published through it: what `appliedAll` waits for.
 */
export function mirrored(a: StatisticsService, b: StatisticsService) {
  const published = new Set<string>()
  const both: StatisticsService = {
    ...a,
    bus: {
      ...a.bus,
      publish: async (subject, envelope, opts) => {
        published.add(envelope.id)
        await b.bus.publish(subject, envelope, opts)
        return a.bus.publish(subject, envelope, opts)
      },
    },
  }
  return { both, published }
}

/**
 * Resolves once `svc`'s projections applied every event of `ids` (each its inbox row). The lag alone does not say
 * so: an event thrown because its record was not projected yet (a ticket's status change taken on one lane before
 * its creation on another, as a replica that starts with a backlog takes them) waits for its redelivery below the
 * position, where the lag does not count it (README "Projection lag").
 */
export async function appliedAll(svc: StatisticsService, ids: ReadonlySet<string>, timeoutMs = 30_000) {
  const db = svc.db as unknown as Kysely<any>
  const wanted = [...ids]
  const missing = async () => {
    if (wanted.length === 0) return []
    const rows = await db.selectFrom('inbox').select('event_id').where('event_id', 'in', wanted).execute()
    const seen = new Set(rows.map((r) => r.event_id as string))
    return wanted.filter((id) => !seen.has(id))
  }
  await waitFor(async () => (await missing()).length === 0, timeoutMs).catch(async (err) => {
    throw new Error(`${err.message}: events not applied ${JSON.stringify(await missing())}`)
  })
}
