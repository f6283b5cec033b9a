// Where a widget may be embedded (issue 21): a scope's `widget.allowed_origins` against the origin of the page that
// embeds it. Pure.

/** `https://Shop.example:443` → `https://shop.example`; anything that is not an http(s) origin → undefined. */
export function normalOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    return url.origin
  } catch {
    return undefined
  }
}

/**
 * May a page of `origin` run the scope's widget? An empty list admits any page, the origin missing included (the
 * development default, reported by the security baseline); otherwise the origin must be one listed.
 */
export function embedAllowed(allowed: readonly string[], origin: string | undefined): boolean {
  if (allowed.length === 0) return true
  const mine = normalOrigin(origin)
  if (!mine) return false
  return allowed.some((o) => normalOrigin(o) === mine)
}
