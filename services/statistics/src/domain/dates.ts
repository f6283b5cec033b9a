// Calendar days of the statistics endpoints, as `YYYY-MM-DD` strings in and out, and their instants in UTC (the
// default: spec "today" is 00:00 of the current day; zones.ts gives another zone's). Pure: no clock but the one
// passed in.

export const MAX_RANGE_DAYS = 366
const DAY_MS = 86_400_000
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar day, or why it is none (2026-02-30 matches the pattern but is no day). */
export function parseDay(value: string): { ok: true; ms: number } | { ok: false; reason: string } {
  const m = DATE.exec(value)
  if (!m) return { ok: false, reason: 'must be a date as YYYY-MM-DD' }
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  if (new Date(ms).toISOString().slice(0, 10) !== value) return { ok: false, reason: `${value} is not a calendar day` }
  return { ok: true, ms }
}

export type RangeCheck =
  | { ok: true; start: string; end: string; days: string[] }
  | { ok: false; param: 'start_date' | 'end_date'; kind: 'date' | 'range'; reason: string }

/** start_date and end_date, both inclusive: each a day, end not before start, at most MAX_RANGE_DAYS days. */
export function checkRange(start: string, end: string): RangeCheck {
  const s = parseDay(start)
  if (!s.ok) return { ok: false, param: 'start_date', kind: 'date', reason: s.reason }
  const e = parseDay(end)
  if (!e.ok) return { ok: false, param: 'end_date', kind: 'date', reason: e.reason }
  if (e.ms < s.ms) return { ok: false, param: 'end_date', kind: 'range', reason: 'end_date is before start_date' }
  const count = (e.ms - s.ms) / DAY_MS + 1
  if (count > MAX_RANGE_DAYS) {
    return { ok: false, param: 'end_date', kind: 'range', reason: `a range covers at most ${MAX_RANGE_DAYS} days` }
  }
  const days = Array.from({ length: count }, (_, i) => dayOf(new Date(s.ms + i * DAY_MS)))
  return { ok: true, start: startOfDay(start), end: startOfDay(nextDay(end)), days }
}

const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/** `YYYY-MM-DD` of an instant, in UTC (an ISO string in UTC is its own prefix: the projections' common case). */
export const dayOf = (at: Date | string) =>
  typeof at === 'string' && UTC_ISO.test(at) ? at.slice(0, 10) : new Date(at).toISOString().slice(0, 10)

/** The instant a day starts, as the ISO string timestamps are compared with. */
export const startOfDay = (day: string) => `${day}T00:00:00.000Z`

export const nextDay = (day: string) => dayOf(new Date(Date.parse(startOfDay(day)) + DAY_MS))

/** The quarter hour an instant falls in (`YYYY-MM-DDTHH:MM`, UTC): the key of the message counts. */
export function quarterHourOf(at: string): string {
  const d = new Date(at)
  d.setUTCMinutes(d.getUTCMinutes() - (d.getUTCMinutes() % 15), 0, 0)
  return d.toISOString().slice(0, 16)
}
