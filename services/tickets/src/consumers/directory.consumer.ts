import type { Static } from '@sinclair/typebox'
import { IdentityEvents } from '@switchboard/contracts'
import type { ConsumerDef, Scope } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { applyAgentStatus, upsertAgent, upsertCustomer } from '../db/directory.repository.ts'

export const DIRECTORY_CONSUMER = 'tickets-directory'

const DIRECTORY_TYPES = new Set<string>([
  IdentityEvents.customerUpserted.type,
  IdentityEvents.agentUpserted.type,
  IdentityEvents.agentStatusChanged.type,
])

type CustomerUpserted = Static<typeof IdentityEvents.customerUpserted.data>
type AgentUpserted = Static<typeof IdentityEvents.agentUpserted.data>
type AgentStatusChanged = Static<typeof IdentityEvents.agentStatusChanged.data>

/**
 * Identity's customers and agents, as tickets checks references against them and auto-assigns (the directory
 * tables): no call to identity per request. A durable consumer starts at the beginning of the IDENTITY stream, so
 * a new deployment (or a dropped table and a reset consumer) rebuilds the directory by replay. Each event is
 * applied once (inbox) and only if newer than what the row holds, so a redelivery never undoes a later change.
 */
export const directoryProjection: ConsumerDef<TicketsService> = {
  durable: DIRECTORY_CONSUMER,
  stream: 'IDENTITY',
  // One filter, not the three subjects: several filter subjects need NATS 2.10, and the platform keeps 2.9 working.
  // The other identity events are recorded in the inbox and skipped.
  subjects: ['identity.>'],
  idempotency: 'inbox',
  async handle(svc, delivery, tx) {
    const { envelope } = delivery
    if (!DIRECTORY_TYPES.has(envelope.type)) return
    // A record is bound to one workspace. An event without one (identity acting for an unscoped admin) can still
    // update a record already known, by its id, but can't place a new one.
    const scope: Scope | null =
      envelope.tenant_id && envelope.workspace_id
        ? { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
        : null
    if (!scope) {
      svc.log.debug(
        { component: DIRECTORY_CONSUMER, type: envelope.type, id: envelope.id },
        'directory event without a scope',
      )
    }
    const at = envelope.occurred_at
    switch (envelope.type) {
      case IdentityEvents.customerUpserted.type: {
        const c = envelope.data as CustomerUpserted
        await upsertCustomer(tx.db, { customer_id: c.customer_id, user_id: c.user_id, name: c.name }, scope, at)
        return
      }
      case IdentityEvents.agentUpserted.type: {
        const a = envelope.data as AgentUpserted
        const agent = {
          agent_id: a.agent_id,
          user_id: a.user_id,
          name: a.name,
          status: a.status,
          max_concurrent: a.max_concurrent,
        }
        await upsertAgent(tx.db, agent, scope, at)
        return
      }
      case IdentityEvents.agentStatusChanged.type: {
        const a = envelope.data as AgentStatusChanged
        await applyAgentStatus(tx.db, { agent_id: a.agent_id, user_id: a.user_id, status: a.status }, scope, at)
        return
      }
    }
  },
}
