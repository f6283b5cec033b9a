import { checkRange, parseDay } from '../domain/dates.ts'
import { dayIn, dayStartIn, isTimeZone } from '../domain/zones.ts'
import { StatisticsErrors } from '../errors.ts'

export const UTC = 'UTC'

/** A checked report range: its days, the [from, to) window of instants they cover in `tz`, and the zone. */
export interface Range {
  days: string[]
  from: string
  to: string
  tz: string
}

/** tz= as given, checked; UTC when absent. */
export function zoneOf(query: { tz?: string }): string {
  const tz = query.tz ?? UTC
  if (!isTimeZone(tz)) throw new StatisticsErrors.BadZone(tz)
  return tz
}

/** start_date/end_date checked as the README's "Endpoints" says: 400 naming the parameter. */
export function rangeOf(query: { start_date: string; end_date: string; tz?: string }): Range {
  const tz = zoneOf(query)
  const r = checkRange(query.start_date, query.end_date)
  if (!r.ok) {
    throw r.kind === 'date'
      ? new StatisticsErrors.BadDate(r.param, r.reason)
      : new StatisticsErrors.BadRange(r.param, r.reason)
  }
  if (tz === UTC) return { days: r.days, from: r.start, to: r.end, tz }
  // the range ends where the day after its last starts, in the zone
  return { days: r.days, from: dayStartIn(r.days[0]!, tz), to: dayStartIn(r.end.slice(0, 10), tz), tz }
}

export const DEFAULT_RANGE_DAYS = 30

/** Both dates or neither; neither is the last DEFAULT_RANGE_DAYS days up to today (the earlier system's default). */
export function optionalRangeOf(query: { start_date?: string; end_date?: string; tz?: string }, now: Date): Range {
  if (query.start_date === undefined && query.end_date === undefined) {
    const tz = zoneOf(query)
    const end = dayIn(now, tz)
    const start = new Date(Date.parse(`${end}T00:00:00.000Z`) - (DEFAULT_RANGE_DAYS - 1) * 86_400_000)
    return rangeOf({ start_date: start.toISOString().slice(0, 10), end_date: end, tz })
  }
  if (query.start_date === undefined) throw new StatisticsErrors.BadDate('start_date', 'is required with end_date')
  if (query.end_date === undefined) throw new StatisticsErrors.BadDate('end_date', 'is required with start_date')
  return rangeOf({ start_date: query.start_date, end_date: query.end_date, tz: query.tz })
}

/** A single day parameter, default today (UTC). */
export function dayParam(name: string, value: string | undefined, now: Date): string {
  if (value === undefined) return dayIn(now, UTC)
  const d = parseDay(value)
  if (!d.ok) throw new StatisticsErrors.BadDate(name, d.reason)
  return value
}
