/** A time filter: `start` inclusive; `end` inclusive of an instant, or exclusive of the day after a date. */
export interface DateRange {
  start?: string
  end?: { at: string; inclusive: boolean }
}

export type RangeResult = { ok: true; range: DateRange } | { ok: false; reason: 'date' | 'range'; message: string }

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/
const DAY_MS = 86_400_000

/** Midnight UTC of a calendar date, or undefined when the date doesn't exist (2026-02-30). */
function dayStart(text: string): number | undefined {
  const m = DATE.exec(text)
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = Date.UTC(y, mo - 1, d)
  const back = new Date(t)
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? t : undefined
}

function instant(text: string): number | undefined {
  if (!RFC3339.test(text)) return undefined
  const t = Date.parse(text.replace(' ', 'T'))
  return Number.isNaN(t) ? undefined : t
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * `start_date` / `end_date` as `YYYY-MM-DD` (UTC days; the end date counts whole) or RFC 3339 instants.
 * An end before the start is refused rather than answered with an empty list.
 */
export function parseDateRange(startDate?: string, endDate?: string): RangeResult {
  const range: DateRange = {}
  let startMs: number | undefined
  if (startDate) {
    startMs = dayStart(startDate) ?? instant(startDate)
    if (startMs === undefined) {
      return { ok: false, reason: 'date', message: 'start_date must be a date (YYYY-MM-DD) or an RFC 3339 time' }
    }
    range.start = iso(startMs)
  }
  if (endDate) {
    const day = dayStart(endDate)
    const at = day ?? instant(endDate)
    if (at === undefined) {
      return { ok: false, reason: 'date', message: 'end_date must be a date (YYYY-MM-DD) or an RFC 3339 time' }
    }
    range.end = day !== undefined ? { at: iso(day + DAY_MS), inclusive: false } : { at: iso(at), inclusive: true }
    const endMs = Date.parse(range.end.at)
    if (startMs !== undefined && (range.end.inclusive ? endMs < startMs : endMs <= startMs)) {
      return { ok: false, reason: 'range', message: 'end_date is before start_date' }
    }
  }
  return { ok: true, range }
}
