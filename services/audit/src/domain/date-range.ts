import { parseTimeBounds } from '@switchboard/platform'

/** A time filter: `start` inclusive; `end` inclusive of an instant, or exclusive of the day after a date. */
export interface DateRange {
  start?: string
  end?: { at: string; inclusive: boolean }
}

export type RangeResult = { ok: true; range: DateRange } | { ok: false; reason: 'date' | 'range'; message: string }

const MESSAGES = {
  start: 'start_date must be a date (YYYY-MM-DD) or an RFC 3339 time',
  end: 'end_date must be a date (YYYY-MM-DD) or an RFC 3339 time',
  order: 'end_date is before start_date',
} as const

/**
 * `start_date` / `end_date` as `YYYY-MM-DD` (UTC days; the end date counts whole) or RFC 3339 instants
 * (`parseTimeBounds`). An end before the start is refused rather than answered with an empty list.
 */
export function parseDateRange(startDate?: string, endDate?: string): RangeResult {
  const b = parseTimeBounds(startDate, endDate)
  if (!b.ok) return { ok: false, reason: b.bad === 'order' ? 'range' : 'date', message: MESSAGES[b.bad] }
  const range: DateRange = {}
  if (b.start) range.start = b.start
  if (b.end) range.end = { at: b.end.at, inclusive: !b.end.exclusive }
  return { ok: true, range }
}
