/** `date_from` / `date_to` (YYYY-MM-DD, UTC days, both inclusive) as instants [from, to), pure. */
export type DateRange =
  | { ok: true; from?: string; to?: string }
  | { ok: false; field: string; reason: 'date' | 'order' }

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY = 86_400_000

function dayStart(value: string): number | undefined {
  const m = DATE.exec(value)
  if (!m) return undefined
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  // 2026-02-30 rolls over in Date.UTC: a real date reads back the same
  return new Date(t).toISOString().slice(0, 10) === value ? t : undefined
}

export function dateRange(q: { date_from?: string; date_to?: string }): DateRange {
  const from = q.date_from === undefined ? undefined : dayStart(q.date_from)
  if (q.date_from !== undefined && from === undefined) return { ok: false, field: 'date_from', reason: 'date' }
  const to = q.date_to === undefined ? undefined : dayStart(q.date_to)
  if (q.date_to !== undefined && to === undefined) return { ok: false, field: 'date_to', reason: 'date' }
  if (from !== undefined && to !== undefined && to < from) return { ok: false, field: 'date_to', reason: 'order' }
  return {
    ok: true,
    ...(from !== undefined ? { from: new Date(from).toISOString() } : {}),
    ...(to !== undefined ? { to: new Date(to + DAY).toISOString() } : {}),
  }
}

/** The `days` UTC dates ending with `now`'s, oldest first. */
export function lastDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY).toISOString().slice(0, 10))
}
