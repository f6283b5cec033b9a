// Time zones of the optional `tz=` parameter (an IANA name): which day an instant falls on there, and the instant a
// day starts. Built on Intl (the runtime's tz database), so daylight-saving changes are the database's, not ours.

const formats = new Map<string, Intl.DateTimeFormat>()

function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    // a bounded cache: the IANA database has some 600 names, and only valid ones get here
    if (formats.size < 1000) formats.set(tz, f)
  }
  return f
}

/** Is `tz` a time zone the runtime knows (IANA name, or UTC)? */
export function isTimeZone(tz: string): boolean {
  try {
    format(tz)
    return true
  } catch {
    return false
  }
}

function wallClock(ms: number, tz: string) {
  const parts: Record<string, string> = {}
  for (const p of format(tz).formatToParts(new Date(ms))) parts[p.type] = p.value
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    ms: Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!),
  }
}

/** The zone's offset from UTC at an instant, in ms (east positive). */
const offsetAt = (ms: number, tz: string) => wallClock(ms, tz).ms - Math.floor(ms / 1000) * 1000

/** The calendar day (`YYYY-MM-DD`) an instant falls on in `tz`. */
export const dayIn = (at: Date | string | number, tz: string) =>
  tz === 'UTC' ? new Date(at).toISOString().slice(0, 10) : wallClock(new Date(at).getTime(), tz).day

/** The instant `day` starts in `tz` (its local midnight; the first instant of the day where midnight is skipped). */
export function dayStartIn(day: string, tz: string): string {
  if (tz === 'UTC') return `${day}T00:00:00.000Z`
  const midnight = Date.parse(`${day}T00:00:00.000Z`)
  let start = midnight - offsetAt(midnight, tz)
  const again = midnight - offsetAt(start, tz)
  // across a daylight-saving change the offset at the guess differs from the one at the day's start
  if (again !== start && dayIn(again, tz) === day) start = again
  while (dayIn(start, tz) !== day && start < midnight + 86_400_000) start += 15 * 60_000
  return new Date(start).toISOString()
}
