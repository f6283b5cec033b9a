// Key names whose values never reach storage (docs/api.md §12): compared lower-cased without - and _.
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'secret',
  'apikey',
  'token',
  'authorization',
  'accesstoken',
  'refreshtoken',
  'clientsecret',
]

export const REDACTED = '[REDACTED]'

/** What stands for the part of a value nested deeper than an audit record keeps. */
export const TOO_DEEP = '[TRUNCATED: nested too deep]'

/** An audit snapshot keeps this many levels of nesting and this many bytes of JSON; beyond, it is truncated. */
export const AUDIT_LIMITS = { depth: 32, bytes: 65_536 } as const

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replaceAll('-', '').replaceAll('_', '')
  return SECRET_SUFFIXES.some((s) => k === s || k.endsWith(s))
}

/**
 * Deep copy with every secret-named value replaced, at any depth kept. Bounded: levels past `maxDepth` become
 * the `TOO_DEEP` marker, so a hostile body (20,000 nested arrays) yields a small record instead of a stack
 * overflow when it is serialised — and the refusal is still recorded.
 */
export function maskSecrets(value: unknown, maxDepth: number = AUDIT_LIMITS.depth, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value
  if (depth >= maxDepth) return TOO_DEEP
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, maxDepth, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? REDACTED : maskSecrets(v, maxDepth, depth + 1)
  return out
}

/**
 * What an audit record stores of a request body or a snapshot: masked, depth-bounded, and when its JSON is
 * larger than `AUDIT_LIMITS.bytes`, a marker with the size and the start of the text instead of the value.
 */
export function auditSnapshot(value: unknown): unknown {
  try {
    const masked = maskSecrets(value ?? null)
    if (masked === null || typeof masked !== 'object') return masked
    const text = JSON.stringify(masked)
    if (text.length <= AUDIT_LIMITS.bytes) return masked
    return { _truncated: true, _bytes: text.length, preview: text.slice(0, 1024) }
  } catch {
    // a snapshot that can't be serialised (a cycle, a BigInt) must not cost the record
    return { _truncated: true, _unserialisable: true }
  }
}
