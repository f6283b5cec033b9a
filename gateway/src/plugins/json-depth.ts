const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Does this JSON text nest objects/arrays deeper than `max`? One pass over the bytes, strings skipped, no parse:
 * cheap enough for every body, and a hostile 20,000-level body is refused after a few kilobytes. Malformed JSON
 * is the service's to refuse; only depth is judged here.
 */
export function jsonDeeperThan(body: Uint8Array, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
  }
  return false
}

/** `application/json` and `+json` media types (`application/merge-patch+json`). */
export function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase()
  return type === 'application/json' || type.endsWith('+json')
}
