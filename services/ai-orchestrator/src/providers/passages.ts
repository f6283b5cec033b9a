import { isObject } from '../outbound/http.ts'
import type { Passage } from './port.ts'

/** What the adapters share in reading a provider's answer into passages. */

/** A provider's score as 0..1: a number outside the range is clamped, anything else is 0. */
export function clampScore(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n)) return 0
  return Math.min(1, Math.max(0, n))
}

/** The first value that is a non-empty string (ids may come as numbers). */
export function firstString(...values: unknown[]): string | undefined {
  for (const v of values) {
    if (typeof v === 'string' && v !== '') return v
    if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  }
  return undefined
}

export const objectOr = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {})

/** Best first, at most `limit`. */
export const topPassages = (passages: Passage[], limit: number) =>
  passages.sort((a, b) => b.score - a.score).slice(0, Math.max(0, limit))
