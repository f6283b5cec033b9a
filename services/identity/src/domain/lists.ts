/**
 * A list field given as an array or as one comma-separated string (the earlier system stored tags and skills as
 * CSV): every element is split on commas and trimmed, empties dropped, duplicates removed, order kept. So
 * "vip, de" and ["vip", "de"] and ["vip,de"] are the same two tags, never one element with a comma.
 */
export function splitList(value: string | readonly string[]): string[] {
  const parts = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(','))
  return [...new Set(parts.map((p) => p.trim()).filter(Boolean))]
}

/** What a tag or skill list keeps after splitting: as many items, as long, as the array schemas allow. */
export const LIST_BOUNDS = { maxItems: 50, maxLength: 64 } as const

/** The list `value` stands for, or why it breaks the bounds. */
export function parseList(
  value: string | readonly string[],
  bounds: { maxItems: number; maxLength: number } = LIST_BOUNDS,
): { ok: true; items: string[] } | { ok: false; problem: string } {
  const items = splitList(value)
  if (items.length > bounds.maxItems) return { ok: false, problem: `at most ${bounds.maxItems} items` }
  if (items.some((i) => i.length > bounds.maxLength)) {
    return { ok: false, problem: `items are at most ${bounds.maxLength} characters` }
  }
  return { ok: true, items }
}
