/**
 * The week calendar's arithmetic, in the browser's time zone (shifts are UTC instants; people plan in local time):
 * the Monday a week starts on, its seven days, and where a shift sits in its day.
 */
export const DAY_MINUTES = 24 * 60

/** Local midnight of the Monday of the week holding `d`. */
export function weekStart(d: Date): Date {
  const out = new Date(d.getFullYear(), d.getMonth(), d.getDate())
  out.setDate(out.getDate() - ((out.getDay() + 6) % 7))
  return out
}

export function addDays(d: Date, n: number): Date {
  const out = new Date(d)
  out.setDate(out.getDate() + n)
  return out
}

export const weekDays = (start: Date) => Array.from({ length: 7 }, (_, i) => addDays(start, i))

export const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()

/** `HH:MM` (a time input's value) on `day`: a local instant. */
export function at(day: Date, hhmm: string): Date {
  const [h, m] = hhmm.split(':').map(Number)
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), h ?? 0, m ?? 0)
}

/**
 * A shift from `start` to `end` on `day`; an end at or before the start is the next day's (a night shift).
 */
export function shiftWindow(day: Date, start: string, end: string): { from: Date; to: Date } {
  const from = at(day, start)
  let to = at(day, end)
  if (to <= from) to = at(addDays(day, 1), end)
  return { from, to }
}

/** Where a shift starting on its day sits in that day's column, as percentages (clipped at midnight). */
export function placement(start: Date, end: Date): { top: number; height: number } {
  const from = start.getHours() * 60 + start.getMinutes()
  const minutes = Math.min((end.getTime() - start.getTime()) / 60_000, DAY_MINUTES - from)
  return { top: (from / DAY_MINUTES) * 100, height: (minutes / DAY_MINUTES) * 100 }
}

/** `2026-11-23` of a local date: the day a shift's cell is keyed by. */
export const dayKey = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
