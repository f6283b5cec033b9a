import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Timestamp } from '@switchboard/contracts'

export const TicketSettingsBody = Type.Object(
  {
    /** new tickets go to the online agent under capacity with the lowest load */
    auto_assign: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type TicketSettingsBody = Static<typeof TicketSettingsBody>

export const TicketSettings = Type.Object({
  auto_assign: Type.Boolean(),
  /** true while the workspace follows the service's default (TICKETS_AUTO_ASSIGN) */
  is_default: Type.Boolean(),
  updated_at: Nullable(Timestamp),
})
