import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Timestamp } from '@switchboard/contracts'
import { WEEKDAYS } from '../domain/business-hours.ts'

const Clock = Type.String({ pattern: '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$', description: 'HH:MM, 00:00 to 24:00' })
const Ranges = Type.Array(Type.Tuple([Clock, Clock]), { maxItems: 12, description: '[["09:00", "12:00"], …]' })
const Weekly = Type.Object(Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Optional(Ranges)])), {
  additionalProperties: false,
  description: 'opening ranges per day (sun … sat); a missing or empty day is closed',
})

export const BusinessHoursBody = Type.Object(
  {
    time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' }),
    weekly: Weekly,
  },
  { additionalProperties: false },
)
export type BusinessHoursBody = Static<typeof BusinessHoursBody>

export const BusinessHours = Type.Object({
  time_zone: Type.String(),
  weekly: Type.Record(Type.String(), Type.Array(Type.Array(Type.String()))),
  /** true while the scope uses the default (Mon–Fri 09:00–17:00 UTC) */
  is_default: Type.Boolean(),
  updated_at: Nullable(Timestamp),
})
export type BusinessHours = Static<typeof BusinessHours>
