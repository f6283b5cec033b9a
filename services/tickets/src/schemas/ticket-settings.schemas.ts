import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Timestamp } from '@switchboard/contracts'

const Values = {
  /** new tickets go to the online agent under capacity with the lowest load */
  auto_assign: Type.Boolean(),
  /** closing a ticket sends the customer a satisfaction survey */
  survey_enabled: Type.Boolean(),
  /** how many days a survey's link answers, a resend's too */
  survey_expiry_days: Type.Integer({ minimum: 1, maximum: 90 }),
}

/** The keys given change; the others keep their value. */
export const TicketSettingsBody = Type.Partial(Type.Object(Values), { additionalProperties: false, minProperties: 1 })
export type TicketSettingsBody = Static<typeof TicketSettingsBody>

export const TicketSettings = Type.Object({
  ...Values,
  /** true while the workspace follows the service's defaults (TICKETS_AUTO_ASSIGN, surveys on for 7 days) */
  is_default: Type.Boolean(),
  updated_at: Nullable(Timestamp),
})
