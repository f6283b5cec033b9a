import { IdentityTenantErasureEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'

/**
 * A tenant's erasure, statistics' part: its read models hold ids, statuses and counts, and of people only the
 * agents' names and departments (the agent performance report), which go; the rows stay, so every total is what it
 * was. Statistics publishes no stream of its own, so it sends no report (as for a customer's erasure, where it holds
 * nothing personal). Applied once (inbox); the version moves to the event's, so an older agent event changes nothing.
 */
export const tenantErasureConsumer: ConsumerDef<StatisticsService> = {
  durable: 'statistics-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      await tx.db
        .updateTable('agents')
        .set({
          name: '',
          department: '',
          version_at: new Date(envelope.occurred_at).toISOString(),
          version_id: envelope.id,
        })
        .where('tenant_id', '=', e.tenant_id)
        .execute()
    }),
  ],
}
