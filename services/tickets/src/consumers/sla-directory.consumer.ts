import { type Envelope, IdentityEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { upsertAgentName, upsertCustomerTier } from '../db/sla-projections.repository.ts'
import { normalizeTier } from '../domain/sla-rules.ts'

/**
 * identity's customers and agents, as this service needs them: a customer's tier (their `priority`, `normal`
 * when the event has none) that SLA configs match on, and display names for surveys and macros. Keyed by user id
 * in the event's scope, as tickets are. Idempotent by itself: an upsert that keeps the newest event's facts.
 */
export const slaDirectoryConsumer: ConsumerDef<TicketsService> = {
  durable: 'tickets-sla-directory',
  stream: 'IDENTITY',
  // one filter subject: the NATS servers in use predate multi-subject consumers (2.10); the handler picks its two
  subjects: ['identity.>'],
  idempotency: 'handler',
  handlers: [
    on(IdentityEvents.customerUpserted, async ({ envelope, data: c }, svc) => {
      const scope = scopeOf(envelope)
      if (!scope) return
      const facts = { user_id: c.user_id, tier: normalizeTier(c.priority), name: c.name }
      await upsertCustomerTier(svc.db, scope, facts, envelope.occurred_at)
    }),
    on(IdentityEvents.agentUpserted, async ({ envelope, data: a }, svc) => {
      const scope = scopeOf(envelope)
      if (!scope) return
      await upsertAgentName(svc.db, scope, { user_id: a.user_id, name: a.name }, envelope.occurred_at)
    }),
  ],
}

const scopeOf = (e: Envelope) =>
  e.tenant_id && e.workspace_id ? { tenant_id: e.tenant_id, workspace_id: e.workspace_id } : undefined
