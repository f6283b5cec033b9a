import { type Caller, concreteScope, nowIso } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { findTicketSettings, type TicketSettings, upsertTicketSettings } from '../db/ticket-settings.repository.ts'

/** A workspace's ticket settings replaced (PUT /api/tickets/settings); before/after for the audit. */
export function setTicketSettings(svc: TicketsService, caller: Caller, body: { auto_assign: boolean }) {
  const scope = concreteScope(caller)
  return svc.transaction(caller, async (tx): Promise<{ before: TicketSettings; after: TicketSettings }> => {
    const before = await findTicketSettings(tx.db, scope, svc.config)
    const now = nowIso()
    await upsertTicketSettings(tx.db, scope, body, now)
    return { before, after: { auto_assign: body.auto_assign, is_default: false, updated_at: now } }
  })
}
