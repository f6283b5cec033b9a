/**
 * A list's time filters (`created_from`/`created_to`, …): `YYYY-MM-DD` (UTC days, the end day counted whole) or
 * RFC 3339 instants, the same reading as the audit log's `start_date`/`end_date`. The half-open form (`<` the day
 * after) keeps an index range scan on both engines.
 */
export interface TimeRange {
  /** inclusive */
  from?: string
  /** `<` when `exclusive` (the day after a date), else `<=` */
  to?: { at: string; exclusive: boolean }
}

export type RangeResult = { ok: true; range: TimeRange } | { ok: false; message: string }

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/
const DAY_MS = 86_400_000

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

/** `<name>_from` / `<name>_to` as a range; an end before the start is refused rather than answered empty. */
export function parseTimeRange(name: string, from?: string, to?: string): RangeResult {
  const range: TimeRange = {}
  let fromMs: number | undefined
  if (from) {
    fromMs = dayStart(from) ?? instant(from)
    if (fromMs === undefined) {
      return { ok: false, message: `querystring.${name}_from: a date (YYYY-MM-DD) or an RFC 3339 time` }
    }
    range.from = new Date(fromMs).toISOString()
  }
  if (to) {
    const day = dayStart(to)
    const at = day !== undefined ? day + DAY_MS : instant(to)
    if (at === undefined) {
      return { ok: false, message: `querystring.${name}_to: a date (YYYY-MM-DD) or an RFC 3339 time` }
    }
    range.to = { at: new Date(at).toISOString(), exclusive: day !== undefined }
    if (fromMs !== undefined && (range.to.exclusive ? at <= fromMs : at < fromMs)) {
      return { ok: false, message: `querystring.${name}_to: before ${name}_from` }
    }
  }
  return { ok: true, range }
}
