/**
 * Business time, pure: a scope's calendar (weekly opening hours in an IANA time zone) and the arithmetic SLA
 * deadlines need when a config counts `business_hours_only`. Wall-clock times are turned into instants with
 * `Intl` each day, so a day that is 23 or 25 hours long (DST) counts what the clock on the wall showed.
 */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** `[["09:00", "17:00"], …]` per day; a missing or empty day is closed. "24:00" ends a day. */
export type WeeklyHours = Partial<Record<Weekday, Array<[string, string]>>>

export interface Calendar {
  time_zone: string
  weekly: WeeklyHours
}

/** Used by a scope that never set its own: Monday to Friday, 09:00–17:00 UTC. */
export const DEFAULT_CALENDAR: Calendar = Object.freeze({
  time_zone: 'UTC',
  weekly: {
    mon: [['09:00', '17:00']],
    tue: [['09:00', '17:00']],
    wed: [['09:00', '17:00']],
    thu: [['09:00', '17:00']],
    fri: [['09:00', '17:00']],
  },
}) as Calendar

const MINUTE = 60_000
const DAY = 86_400_000
// A deadline at most a year of business time away needs, with one open hour a week, ~60 years of days: the walk
// stops well before that (SLA times are capped at a year, and an empty week is refused).
const MAX_DAYS = 366 * 60

const clock = (hhmm: string): number | undefined => {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/.exec(hhmm)
  if (!m) return undefined
  return m[1] === undefined ? 24 * 60 : Number(m[1]) * 60 + Number(m[2])
}

/** The first problem of a calendar, or undefined when it is usable. */
export function calendarProblem(cal: Calendar): string | undefined {
  if (!isTimeZone(cal.time_zone)) return `time_zone: unknown IANA time zone ${JSON.stringify(cal.time_zone)}`
  let open = 0
  for (const [day, ranges] of Object.entries(cal.weekly)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) return `weekly.${day}: not a day (sun … sat)`
    const spans = (ranges ?? []).map(([from, to]) => [clock(from), clock(to)] as const)
    for (const [i, [from, to]] of spans.entries()) {
      if (from === undefined || to === undefined) return `weekly.${day}[${i}]: times are HH:MM, 00:00 to 24:00`
      if (from >= to) return `weekly.${day}[${i}]: start must be before end`
      open += to - from
    }
    const sorted = [...spans].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))
    for (let i = 1; i < sorted.length; i++) {
      if ((sorted[i]![0] ?? 0) < (sorted[i - 1]![1] ?? 0)) return `weekly.${day}: ranges overlap`
    }
  }
  if (open === 0) return 'weekly: at least one opening range is needed'
  return undefined
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(tz, f)
  }
  return f
}

/** The wall clock of `tz` at `instant`, as if that clock were UTC (ms). */
function wallClock(instant: number, tz: string): number {
  const p: Record<string, number> = {}
  for (const part of formatter(tz).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value)
  }
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) + (((instant % 1000) + 1000) % 1000)
}

const offsetAt = (instant: number, tz: string) => wallClock(instant, tz) - instant

/**
 * The instant a wall-clock time (`wall` ms, read as UTC) happens in `tz`. In a DST gap (02:30 that never
 * shows) it is moved forward by the gap; in an overlap (01:30 shown twice) it is the first, as Temporal's
 * "compatible" does.
 */
export function instantOf(wall: number, tz: string): number {
  // the offsets in force a day either side: a transition between them is the gap or overlap `wall` may fall in
  const offsets = [offsetAt(wall - DAY, tz), offsetAt(wall, tz), offsetAt(wall + DAY, tz)]
  const candidates = offsets.map((o) => wall - o).filter((t) => wallClock(t, tz) === wall)
  if (candidates.length > 0) return Math.min(...candidates)
  return wall - Math.min(...offsets)
}

/** A local date (ms at its UTC midnight) and its weekday. */
function localDay(instant: number, tz: string): number {
  return Math.floor(wallClock(instant, tz) / DAY) * DAY
}

// A monitor pass computes many deadlines against one calendar object: each local day is converted once.
const rangeCache = new WeakMap<Calendar, Map<number, Array<[number, number]>>>()

/** One local day's opening ranges, as instants [start, end), in order. */
function openRanges(day: number, cal: Calendar): Array<[number, number]> {
  let days = rangeCache.get(cal)
  if (!days) {
    days = new Map()
    rangeCache.set(cal, days)
  }
  let ranges = days.get(day)
  if (!ranges) {
    if (days.size > 4096) days.clear()
    ranges = computeRanges(day, cal)
    days.set(day, ranges)
  }
  return ranges
}

function computeRanges(day: number, cal: Calendar): Array<[number, number]> {
  const weekday = WEEKDAYS[new Date(day).getUTCDay()]!
  const out: Array<[number, number]> = []
  for (const [from, to] of cal.weekly[weekday] ?? []) {
    const start = instantOf(day + clock(from)! * MINUTE, cal.time_zone)
    const end = instantOf(day + clock(to)! * MINUTE, cal.time_zone)
    if (end > start) out.push([start, end])
  }
  return out.sort((x, y) => x[0] - y[0])
}

/** The instant `minutes` of business time after `from`: the deadline of a ticket created at `from`. */
export function addBusinessMinutes(from: Date, minutes: number, cal: Calendar): Date {
  let left = minutes * MINUTE
  const start = from.getTime()
  // from the day before: a range of yesterday's local date may still be open in today's UTC morning
  let day = localDay(start, cal.time_zone) - DAY
  for (let i = 0; i < MAX_DAYS; i++, day += DAY) {
    for (const [a, b] of openRanges(day, cal)) {
      if (b <= start) continue
      const from = Math.max(a, start)
      if (left <= b - from) return new Date(from + left)
      left -= b - from
    }
  }
  throw new RangeError('business time does not reach the deadline (an empty calendar?)')
}

/**
 * The latest instant from which `minutes` of business time have passed by `to`: a ticket created at or before
 * it is past its deadline at `to`. What the monitor compares `created_at` with, once per config and pass.
 */
export function subtractBusinessMinutes(to: Date, minutes: number, cal: Calendar): Date {
  let left = minutes * MINUTE
  const end = to.getTime()
  let day = localDay(end, cal.time_zone) + DAY
  for (let i = 0; i < MAX_DAYS; i++, day -= DAY) {
    for (const [a, b] of [...openRanges(day, cal)].reverse()) {
      if (a >= end) continue
      const until = Math.min(b, end)
      if (left <= until - a) return new Date(until - left)
      left -= until - a
    }
  }
  throw new RangeError('business time does not reach back that far (an empty calendar?)')
}

/** Business minutes between two instants (0 when `to` is not after `from`). */
export function businessMinutesBetween(from: Date, to: Date, cal: Calendar): number {
  const start = from.getTime()
  const end = to.getTime()
  let total = 0
  for (let day = localDay(start, cal.time_zone) - DAY; day <= localDay(end, cal.time_zone) + DAY; day += DAY) {
    for (const [a, b] of openRanges(day, cal)) total += Math.max(0, Math.min(b, end) - Math.max(a, start))
  }
  return total / MINUTE
}
