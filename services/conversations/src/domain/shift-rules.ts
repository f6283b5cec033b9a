/** Shift schedules: the earlier system's types and statuses, and the pure rules around them. */
export const SHIFT_TYPES = ['morning', 'afternoon', 'evening', 'night'] as const
export const SHIFT_STATUSES = ['scheduled', 'active', 'completed', 'cancelled'] as const
export type ShiftType = (typeof SHIFT_TYPES)[number]
export type ShiftStatus = (typeof SHIFT_STATUSES)[number]

/** Statuses in which an agent counts as on shift while the shift's window covers the moment (routing). */
export const ON_SHIFT_STATUSES: readonly ShiftStatus[] = ['scheduled', 'active']

export const SHIFT_SORT_FIELDS = ['start_time', 'end_time', 'created_at'] as const
export type ShiftSortField = (typeof SHIFT_SORT_FIELDS)[number]

const DAY_MS = 86_400_000

/**
 * An RFC 3339 instant as stored: UTC with milliseconds. SQLite compares timestamps as text, so `+08:00` offsets
 * must never reach a row or a filter unconverted. `undefined` when the value is not a date at all.
 */
export function toInstant(value: string): string | undefined {
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}

/**
 * The UTC years a shift time or list bound may fall in. PostgreSQL refuses year 0 (`0000-01-01`) and a bound
 * past 9999 (a `date_to` of 9999-12-31 ends at 10000-01-01) where SQLite compares any text, and `+010000-…`
 * would not even sort as text: refused alike on both engines, and nothing real lies outside.
 */
export const INSTANT_YEARS = { from: 1970, to: 9998 } as const
export const YEARS_PROBLEM = `must lie in the years ${INSTANT_YEARS.from} to ${INSTANT_YEARS.to} (UTC)`

const storableYear = (instant: string) => {
  const year = new Date(instant).getUTCFullYear()
  return year >= INSTANT_YEARS.from && year <= INSTANT_YEARS.to
}

/** A shift time as stored, or what is wrong with it: not a date, or outside INSTANT_YEARS. */
export function shiftInstant(value: string): { at: string } | { problem: string } {
  const at = toInstant(value)
  if (!at) return { problem: 'must be an RFC 3339 date-time' }
  return storableYear(at) ? { at } : { problem: YEARS_PROBLEM }
}

/**
 * Which field of a shift's window is wrong, if any: the end must come strictly after the start. `changed` names
 * the field the caller sent (an update of only `start_time` past the stored end blames `start_time`).
 */
export function windowProblem(
  start: string,
  end: string,
  changed: { start?: boolean; end?: boolean } = { end: true },
): { field: 'start_time' | 'end_time'; message: string } | undefined {
  if (Date.parse(end) > Date.parse(start)) return undefined
  return changed.end || !changed.start
    ? { field: 'end_time', message: 'must be after start_time' }
    : { field: 'start_time', message: 'must be before end_time' }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

export type ListBound = { at: string; exclusive: boolean }

const NOT_A_BOUND = 'must be YYYY-MM-DD or RFC 3339'

/**
 * A list bound (`date_from` / `date_to`) as an instant. A bare date is a whole UTC day: `date_from=2026-01-02` starts
 * at its midnight, `date_to=2026-01-02` ends before the next one, so both bounds include the named day.
 * Returns the instant and whether it is exclusive (a date-only `date_to`), or what is wrong with the value: not a
 * date, or a day or instant outside INSTANT_YEARS.
 */
export function listBound(value: string, side: 'from' | 'to'): ListBound | { problem: string } {
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00.000Z`)
    // Date.parse rolls 2026-02-30 over to March; a day that does not round-trip is not a day
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return { problem: NOT_A_BOUND }
    // the named day is checked: the day after 9998-12-31, the exclusive end, still lies in a year both store
    if (!storableYear(new Date(ms).toISOString())) return { problem: YEARS_PROBLEM }
    return side === 'from'
      ? { at: new Date(ms).toISOString(), exclusive: false }
      : { at: new Date(ms + DAY_MS).toISOString(), exclusive: true }
  }
  const at = toInstant(value)
  if (!at) return { problem: NOT_A_BOUND }
  return storableYear(at) ? { at, exclusive: false } : { problem: YEARS_PROBLEM }
}

/** The UTC day around `now`, for the `today_active` count: [midnight, next midnight). */
export function utcDay(now: Date): { start: string; end: string } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString() }
}

/**
 * The window that decides whether a scope "has shifts" for routing: 12 hours either side of the moment. A scope
 * that stopped scheduling shifts a month ago is not locked out of routing, and one with a shift later today is
 * held to its schedule; a window centred on the moment does not depend on which time zone the tenant lives in.
 */
export function scheduleWindow(at: string): { start: string; end: string } {
  const ms = Date.parse(at)
  return { start: new Date(ms - DAY_MS / 2).toISOString(), end: new Date(ms + DAY_MS / 2).toISOString() }
}

/** Zero for every known value, then the counted ones: `by_type` / `by_status` always list every key. */
export function countsOf<K extends string>(keys: readonly K[], rows: Array<{ key: string; n: number | string }>) {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>
  for (const r of rows) out[r.key] = (out[r.key] ?? 0) + Number(r.n)
  return out
}
