import { type Caller, concreteScope, nowIso } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import {
  findTicketSettings,
  type TicketSettings,
  type TicketSettingsValues,
  upsertTicketSettings,
} from '../db/ticket-settings.repository.ts'

/**
 * A workspace's ticket settings changed (PUT /api/tickets/settings): the keys given replace theirs, the others keep
 * their current (or default) value; before/after for the audit.
 */
export function setTicketSettings(svc: TicketsService, caller: Caller, body: Partial<TicketSettingsValues>) {
  const scope = concreteScope(caller)
  return svc.transaction(caller, async (tx): Promise<{ before: TicketSettings; after: TicketSettings }> => {
    const before = await findTicketSettings(tx.db, scope, svc.config)
    const now = nowIso()
    const values: TicketSettingsValues = {
      auto_assign: body.auto_assign ?? before.auto_assign,
      survey_enabled: body.survey_enabled ?? before.survey_enabled,
      survey_expiry_days: body.survey_expiry_days ?? before.survey_expiry_days,
    }
    await upsertTicketSettings(tx.db, scope, values, now)
    return { before, after: { ...values, is_default: false, updated_at: now } }
  })
}
