import { type Envelope, ERASURE_EVENT_TYPES } from '@switchboard/contracts'

/** A customer being erased, as the erasure's event names them. */
export interface ErasedPerson {
  tenant_id: string
  /** the customer record's and the account's ids */
  ids: readonly string[]
  /** name, e-mail, phone, login name */
  identifiers: readonly string[]
}

/** Every string of a JSON value, however nested. */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value
  else if (Array.isArray(value)) for (const v of value) yield* stringsOf(v)
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* stringsOf(v)
}

/**
 * Whether an event is about the person, decided as audit's erasure decides it for its records
 * (services/audit/src/db/erasure.repository.ts): of their tenant, and done by them or naming their ids or one of their
 * identifiers of 3 characters or more anywhere in its payload, as a case-insensitive substring.
 */
export function eventAboutPerson(envelope: Envelope, p: ErasedPerson): boolean {
  if (envelope.tenant_id !== p.tenant_id) return false
  if (p.ids.includes(envelope.actor?.user_id)) return true
  const needles = [...p.ids, ...p.identifiers.filter((i) => i.length >= 3)].map((n) => n.toLowerCase())
  if (needles.length === 0) return false
  for (const text of stringsOf(envelope.data)) {
    const lower = text.toLowerCase()
    if (needles.some((n) => lower.includes(n))) return true
  }
  return false
}

/** An erasure's own event (its request or a unit's report): its dead letter stays replayable. */
export const isErasureEvent = (envelope: Envelope): boolean => ERASURE_EVENT_TYPES.has(envelope.type)
