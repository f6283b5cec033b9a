import {
  ERASURE_DLQ_PART,
  ERASURE_MASKING_CONSUMERS,
  IdentityErasureEvents,
  IdentityTenantErasureEvents,
  tenantErasureReport,
} from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import { applyErasureReport } from '../commands/erasure.commands.ts'
import { applyTenantErasureReport } from '../commands/tenant-erasure.commands.ts'
import type { IdentityService } from '../context.ts'
import { type ErasedPerson, eventAboutPerson, isErasureEvent } from '../domain/dead-letter-match.ts'

export const ERASURE_DLQ_CONSUMER = 'identity-erasure-dlq'

/** The dead letters about a customer: those to remove, and those audit's recorder masks on a replay (kept). */
async function customerDeadLetters(bus: IdentityService['bus'], person: ErasedPerson) {
  const about = (await bus.deadLetters()).filter(
    (d) => !isErasureEvent(d.envelope) && eventAboutPerson(d.envelope, person),
  )
  const kept = about.filter((d) => ERASURE_MASKING_CONSUMERS.includes(d.consumer))
  return { remove: about.filter((d) => !kept.includes(d)).map((d) => d.seq), kept: kept.length }
}

/**
 * identity's `dlq` part of an erasure: the dead letters about the customer (or, for a tenant, every dead letter of
 * the tenant) removed from the dead-letter stream, which identity reaches like every unit, so that no replay writes
 * the person back into a unit that erased them. One durable for both events, so a tenant's customers' parts run
 * before the tenant's (the outbox order). Removing is idempotent: a redelivery after a crash scans again, and the
 * report keeps the first count recorded. The erasures' own events stay (a replay carries out a failed part).
 */
export const erasureDeadLetters: ConsumerDef<IdentityService> = {
  durable: ERASURE_DLQ_CONSUMER,
  stream: 'IDENTITY',
  // one filter that holds both requests (several filter subjects need NATS 2.10)
  subjects: ['identity.*.erasure_requested'],
  idempotency: 'inbox',
  handlers: [
    on(IdentityErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const person = { tenant_id: envelope.tenant_id, ids: [e.customer_id, e.user_id], identifiers: e.identifiers }
      const { remove, kept } = await customerDeadLetters(svc.bus, person)
      const counts = {
        dead_letters_removed: await svc.bus.removeDeadLetters(remove),
        dead_letters_kept_for_audit: kept,
      }
      const report = { erasure_id: e.erasure_id, customer_id: e.customer_id, service: ERASURE_DLQ_PART, counts }
      if (!(await applyErasureReport(tx, { ...report, completed_at: new Date().toISOString() }))) {
        svc.log.warn({ component: 'erasure', id: envelope.id }, 'dead-letter part of an unknown erasure')
      }
    }),
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const ofTenant = (await svc.bus.deadLetters()).filter(
        (d) => d.envelope.tenant_id === e.tenant_id && !isErasureEvent(d.envelope),
      )
      const dead_letters_removed = await svc.bus.removeDeadLetters(ofTenant.map((d) => d.seq))
      if (!(await applyTenantErasureReport(tx, tenantErasureReport(e, ERASURE_DLQ_PART, { dead_letters_removed })))) {
        svc.log.warn({ component: 'erasure', id: envelope.id }, 'dead-letter part of an unknown tenant erasure')
      }
    }),
  ],
}
