import { IdentityEvents } from '@switchboard/contracts'
import type { ConsumerDef } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { upsertAgentName, upsertCustomerTier } from '../db/sla-projections.repository.ts'
import { normalizeTier } from '../domain/sla-rules.ts'

type CustomerFacts = { user_id: string; name: string; priority?: string }
type AgentFacts = { user_id: string; name: string }

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
  async handle(svc, { envelope }) {
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    // a record without a concrete scope binds nobody to anything here
    if (!scope.tenant_id || !scope.workspace_id) return
    if (envelope.type === IdentityEvents.customerUpserted.type) {
      const c = envelope.data as CustomerFacts
      const facts = { user_id: c.user_id, tier: normalizeTier(c.priority), name: c.name }
      await upsertCustomerTier(svc.db, scope, facts, envelope.occurred_at)
    } else if (envelope.type === IdentityEvents.agentUpserted.type) {
      const a = envelope.data as AgentFacts
      await upsertAgentName(svc.db, scope, { user_id: a.user_id, name: a.name }, envelope.occurred_at)
    }
  },
}
