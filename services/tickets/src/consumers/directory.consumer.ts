import { type Envelope, IdentityEvents } from '@switchboard/contracts'
import { type ConsumerDef, on, type Scope } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { applyAgentStatus, upsertAgent, upsertCustomer } from '../db/directory.repository.ts'

export const DIRECTORY_CONSUMER = 'tickets-directory'

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
  handlers: [
    on(IdentityEvents.customerUpserted, async ({ envelope, data: c }, tx, svc) => {
      const scope = scopeOf(envelope, svc)
      await upsertCustomer(
        tx.db,
        { customer_id: c.customer_id, user_id: c.user_id, name: c.name },
        scope,
        envelope.occurred_at,
      )
    }),
    on(IdentityEvents.agentUpserted, async ({ envelope, data: a }, tx, svc) => {
      const agent = {
        agent_id: a.agent_id,
        user_id: a.user_id,
        name: a.name,
        status: a.status,
        max_concurrent: a.max_concurrent,
      }
      await upsertAgent(tx.db, agent, scopeOf(envelope, svc), envelope.occurred_at)
    }),
    on(IdentityEvents.agentStatusChanged, async ({ envelope, data: a }, tx, svc) => {
      const agent = { agent_id: a.agent_id, user_id: a.user_id, status: a.status }
      await applyAgentStatus(tx.db, agent, scopeOf(envelope, svc), envelope.occurred_at)
    }),
  ],
}

/** The event's scope, or null for a record identity touched for an unscoped admin (the row's own scope stays). */
function scopeOf(envelope: Envelope, svc: TicketsService): Scope | null {
  if (envelope.tenant_id && envelope.workspace_id) {
    return { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
  }
  svc.log.debug(
    { component: DIRECTORY_CONSUMER, type: envelope.type, id: envelope.id },
    'directory event without a scope',
  )
  return null
}
