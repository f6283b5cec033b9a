import { parseTimeBounds } from '@switchboard/platform'

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

/** `<name>_from` / `<name>_to` as a range (`parseTimeBounds`); an end before the start is refused, not answered empty. */
export function parseTimeRange(name: string, from?: string, to?: string): RangeResult {
  const b = parseTimeBounds(from, to)
  if (!b.ok) {
    const message =
      b.bad === 'order'
        ? `querystring.${name}_to: before ${name}_from`
        : `querystring.${name}_${b.bad === 'start' ? 'from' : 'to'}: a date (YYYY-MM-DD) or an RFC 3339 time`
    return { ok: false, message }
  }
  const range: TimeRange = {}
  if (b.start) range.from = b.start
  if (b.end) range.to = b.end
  return { ok: true, range }
}
