/**
 * The bounds of a time filter as every list reads them: `YYYY-MM-DD` (a UTC day; an end day counts whole, so it
 * becomes `<` the next midnight) or an RFC 3339 instant (`<=` it). The half-open day form keeps an index range scan
 * on both engines. An end before the start is refused rather than answered with an empty list. Services name the
 * parameters in their own errors (audit's `start_date`/`end_date`, tickets' `created_from`/`created_to`, …).
 */
export type TimeBounds =
  | { ok: true; start?: string; end?: { at: string; exclusive: boolean } }
  | { ok: false; bad: 'start' | 'end' | 'order' }

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

export function parseTimeBounds(start?: string, end?: string): TimeBounds {
  const out: Extract<TimeBounds, { ok: true }> = { ok: true }
  let startMs: number | undefined
  if (start) {
    startMs = dayStart(start) ?? instant(start)
    if (startMs === undefined) return { ok: false, bad: 'start' }
    out.start = new Date(startMs).toISOString()
  }
  if (end) {
    const day = dayStart(end)
    const at = day !== undefined ? day + DAY_MS : instant(end)
    if (at === undefined) return { ok: false, bad: 'end' }
    out.end = { at: new Date(at).toISOString(), exclusive: day !== undefined }
    if (startMs !== undefined && (out.end.exclusive ? at <= startMs : at < startMs)) return { ok: false, bad: 'order' }
  }
  return out
}
