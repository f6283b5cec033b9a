import { ERASURE_REPORTERS } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import { applyErasureReport } from '../commands/erasure.commands.ts'
import type { IdentityService } from '../context.ts'

/**
 * Each unit's `<unit>.erasure.reported`, from the unit's own stream, into the erasure's report (one consumer per
 * stream: a consumer reads one). Applied once (inbox); the last expected report completes the erasure.
 */
export const erasureReports: ConsumerDef<IdentityService>[] = ERASURE_REPORTERS.map((r) => ({
  durable: `identity-erasure-reports-${r.stream.toLowerCase()}`,
  stream: r.stream,
  subjects: [r.event.type],
  idempotency: 'inbox',
  handlers: [
    on(r.event, async ({ envelope, data }, tx, svc) => {
      const applied = await applyErasureReport(tx, data)
      if (!applied) svc.log.warn({ component: 'erasure', id: envelope.id }, 'report of an unknown erasure')
    }),
  ],
}))
