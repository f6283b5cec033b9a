import { IdentityEvents, IdentityTenantErasureEvents } from '@switchboard/contracts'
import { on, type Scope, versionOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { StatisticsService } from '../context.ts'
import type { StatisticsDatabase } from '../db/database.ts'
import {
  agentExists,
  applyAgentStatus,
  eraseTenantAgents,
  upsertAgent,
  upsertCustomer,
  upsertUserRole,
} from '../db/directory.repository.ts'
import { projection } from './projection.ts'
import { scopeOfEvent } from './scope.ts'

export const IDENTITY_PROJECTION = 'statistics-identity'

type Db = Kysely<StatisticsDatabase>

/**
 * identity's users (role), customers (scope, source) and agents (name, department, status, response time, rating):
 * what total_customers, total_agents, online/busy agents, avg_response_time, agent performance and customer
 * sources are computed from. Starts at the beginning of the IDENTITY stream, so a new deployment builds the
 * directory by replay; each event is applied once (inbox) and only if newer than the row (newest wins). Token state,
 * tenants and workspaces are not statistics' business. A tenant's erasure is handled here, not by a consumer of its
 * own, so that `switchboard stats rebuild` replays it after the agent events it erases (names stay empty).
 */
export const identityProjection = projection({
  durable: IDENTITY_PROJECTION,
  stream: 'IDENTITY',
  // one filter, not five: several filter subjects need NATS 2.10, and the platform keeps 2.9 working
  subjects: ['identity.>'],
  handlers: [
    on(IdentityEvents.userRegistered, (event, tx) =>
      upsertUserRole(tx, event.data.user_id, event.data.role, versionOf(event.envelope)),
    ),
    on(IdentityEvents.userRoleChanged, (event, tx) =>
      upsertUserRole(tx, event.data.user_id, event.data.role, versionOf(event.envelope)),
    ),
    on(IdentityEvents.customerUpserted, async ({ envelope, data: d }, tx, svc) => {
      const at = scopeOfEvent(envelope) ?? (await storedScope(tx.db, 'customers', d.customer_id))
      if (!at) return skipUnscoped(svc, envelope.type, envelope.id)
      await upsertCustomer(tx, {
        customer_id: d.customer_id,
        user_id: d.user_id,
        ...at,
        source: d.source,
        ...versionOf(envelope),
      })
    }),
    on(IdentityEvents.agentUpserted, async ({ envelope, data: d }, tx, svc) => {
      const at = scopeOfEvent(envelope) ?? (await storedScope(tx.db, 'agents', d.agent_id))
      if (!at) return skipUnscoped(svc, envelope.type, envelope.id)
      await upsertAgent(tx.db, {
        agent_id: d.agent_id,
        user_id: d.user_id,
        ...at,
        name: d.name,
        department: d.department,
        status: d.status,
        avg_response_time: d.avg_response_time,
        rating: d.rating,
        ...versionOf(envelope),
      })
    }),
    on(IdentityEvents.agentStatusChanged, async ({ envelope, data: d }, tx) => {
      // Replicas share this consumer, so a status change may come before its agent's upsert: retried, not lost.
      if (!(await agentExists(tx.db, d.agent_id))) throw new Error(`agent ${d.agent_id} not projected yet`)
      await applyAgentStatus(tx.db, d.agent_id, d.status, versionOf(envelope))
    }),
    // the agents' names and departments go (the only personal data statistics holds); rows and totals stay
    on(IdentityTenantErasureEvents.requested, ({ envelope, data: e }, tx) =>
      eraseTenantAgents(tx.db, e.tenant_id, versionOf(envelope)),
    ),
  ],
})

/**
 * A record identity touched for an unscoped admin: its event has no scope, the row we hold has. Read in the
 * handler's transaction (on SQLite's one connection, a read beside it would wait for it forever).
 */
async function storedScope(db: Db, table: 'customers' | 'agents', id: string): Promise<Scope | null> {
  const key = table === 'customers' ? 'customer_id' : 'agent_id'
  const row = await db.selectFrom(table).select(['tenant_id', 'workspace_id']).where(key, '=', id).executeTakeFirst()
  return row ?? null
}

function skipUnscoped(svc: StatisticsService, type: string, id: string) {
  svc.log.debug({ component: IDENTITY_PROJECTION, type, id }, 'directory record without a scope: not counted')
}
