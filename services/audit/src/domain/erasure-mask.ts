import { ERASED_TEXT, maskIdentifiers } from '@switchboard/contracts'

/** Fields of a request payload or snapshot that hold what a person wrote or is called. */
const PERSONAL_KEYS = new Set([
  'name',
  'email',
  'phone',
  'username',
  'content',
  'body',
  'message',
  'text',
  'note',
  'notes',
  'title',
  'description',
  'subject',
  'comment',
  'summary',
  'reason',
  'filename',
  'company',
  'address',
  'visitor_name',
  'visitor_email',
  'customer_name',
  'customer_email',
])

/**
 * A record's JSON with the person masked: every occurrence of their identifiers in any string, and — when the record
 * is about them (`whole`) — every personal field's value, wherever it is nested. Keys, ids, numbers and the record's
 * shape stay: the audit trail keeps the action, not the person. `identifiers` is the clear list (the erasure
 * consumer) or a function that masks a string (the recorder's hashed list, domain/erased-subjects.ts).
 */
export function maskPerson(
  value: unknown,
  identifiers: readonly string[] | ((text: string) => string),
  whole: boolean,
): unknown {
  if (typeof value === 'string') {
    return typeof identifiers === 'function' ? identifiers(value) : maskIdentifiers(value, identifiers)
  }
  if (Array.isArray(value)) return value.map((v) => maskPerson(v, identifiers, whole))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      whole && PERSONAL_KEYS.has(key) && typeof v === 'string' ? ERASED_TEXT : maskPerson(v, identifiers, whole)
  }
  return out
}
