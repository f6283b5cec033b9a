import type { Principal } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { type Storage, type StorageMode, silentLogger, storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import type { Test } from 'tap'
import { tickets } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import type { TicketsService } from '../../src/context.ts'
import { as, INTERNAL_SECRET, principal } from './app.ts'

/** An agent of acme/support holding what the SLA, satisfaction and macro routes need (the gateway checks them). */
export const slaAgent = principal({
  permissions: ['tickets.*', 'sla.*', 'satisfaction.*', 'macros.*'],
})
export const otherTenantAgent = principal({ ...slaAgent, user_id: 'agent-9', tenant_id: 'globex' })
export const ACME = { tenant_id: 'acme', workspace_id: 'support' }
export const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }

/**
 * A tickets app for SLA/satisfaction/macro tests: the monitor off unless `env` turns it on (tests run passes
 * with `svc.workers.runOnce(name, now)` at the time they choose). `store` builds a second replica on the same
 * storage.
 */
export async function slaApp(t: Test, mode: StorageMode, opts: { env?: NodeJS.ProcessEnv; store?: Storage } = {}) {
  const store = opts.store ?? (await storageFixture(t, mode, 'tksla'))
  const config = {
    ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent', SLA_MONITOR_ENABLED: 'false', ...opts.env }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
  }
  const app = await tickets.build(config, { logger: silentLogger() })
  t.teardown(() => app.close())
  await app.ready()
  await app.whenStarted() // consumers attached, as a runner's /ready waits for
  const svc = tickets.contextOf(app)
  const headers = await as(slaAgent)
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, h = headers) =>
    app.inject({ method, url, headers: h, ...(payload !== undefined ? { payload: payload as object } : {}) })
  return { app, store, svc, headers, call }
}

type Scope = { tenant_id: string; workspace_id: string }
const anyDb = (svc: TicketsService) => svc.db as unknown as Kysely<any>

async function rowExists(svc: TicketsService, table: string, column: string, value: string) {
  try {
    return (
      (await anyDb(svc).selectFrom(table).select(column).where(column, '=', value).executeTakeFirst()) !== undefined
    )
  } catch {
    return false
  }
}

/**
 * Makes a customer known to the service the way identity does, with its event: tickets may then name it, and
 * its `priority` is the tier SLA configs match on.
 */
export async function knownCustomer(
  svc: TicketsService,
  scope: Scope,
  c: { user_id: string; name?: string; priority?: string },
) {
  const data = {
    customer_id: `rec-${c.user_id}`,
    user_id: c.user_id,
    name: c.name ?? c.user_id,
    source: 'web',
    tags: [],
    ...(c.priority ? { priority: c.priority } : {}),
  }
  const envelope = newEnvelope({
    type: 'identity.customer.upserted',
    ...scope,
    actor: { user_id: 'identity', kind: 'service' },
    data,
  })
  await svc.bus.publish(envelope.type, envelope)
  await waitFor(async () => {
    const row = await anyDb(svc)
      .selectFrom('sla_customer_tiers')
      .selectAll()
      .where('user_id', '=', c.user_id)
      .where('tenant_id', '=', scope.tenant_id)
      .where('updated_at', '>=', envelope.occurred_at)
      .executeTakeFirst()
    return row !== undefined && (await rowExists(svc, 'directory_customers', 'user_id', c.user_id))
  })
}

/** Makes an agent known (display name, and assignable) the way identity does. */
export async function knownAgent(svc: TicketsService, scope: Scope, a: { user_id: string; name: string }) {
  const envelope = newEnvelope({
    type: 'identity.agent.upserted',
    ...scope,
    actor: { user_id: 'identity', kind: 'service' },
    data: {
      agent_id: `rec-${a.user_id}`,
      user_id: a.user_id,
      name: a.name,
      department: 'support',
      skills: [],
      max_concurrent: 5,
      status: 'online',
      rating: 5,
      avg_response_time: 0,
    },
  })
  await svc.bus.publish(envelope.type, envelope)
  await waitFor(
    async () =>
      (await rowExists(svc, 'satisfaction_agents', 'user_id', a.user_id)) &&
      (await rowExists(svc, 'directory_agents', 'user_id', a.user_id)),
  )
}

/** Moves a ticket's creation back in time: an SLA clock that has run for `minutes` already. */
export async function backdate(svc: TicketsService, ticketId: string, minutes: number) {
  const at = new Date(Date.now() - minutes * 60_000).toISOString()
  await svc.db.updateTable('tickets').set({ created_at: at }).where('id', '=', ticketId).execute()
  return at
}

export type { Principal }
