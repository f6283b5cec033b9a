import { IdentityEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { upsertProjectedCustomer } from '../db/directory.repository.ts'

export const CUSTOMERS_DURABLE = 'conversations-customers'

/**
 * identity's customers → the `customers` projection, which a session's `customer_id` is checked against (README
 * "References"). Starts at the beginning of the IDENTITY stream, so a new deployment builds it by replay; each event
 * is applied once (inbox) and only if newer than the row.
 */
export const customersProjection: ConsumerDef<ConversationsService> = {
  durable: CUSTOMERS_DURABLE,
  stream: 'IDENTITY',
  subjects: ['identity.customer.>'],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(IdentityEvents.customerUpserted, async ({ envelope, data: c }, tx) => {
      const scope =
        envelope.tenant_id && envelope.workspace_id
          ? { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
          : null
      const at = new Date(envelope.occurred_at).toISOString()
      await upsertProjectedCustomer(tx.db, { customer_id: c.customer_id, user_id: c.user_id, name: c.name }, scope, at)
    }),
  ],
}
