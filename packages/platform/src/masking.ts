// Key names whose values never reach storage (API-NOTES.md, Audit): compared lower-cased without - and _.
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

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replaceAll('-', '').replaceAll('_', '')
  return SECRET_SUFFIXES.some((s) => k === s || k.endsWith(s))
}

/** Deep copy with every secret-named value replaced, at any depth. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? REDACTED : maskSecrets(v, depth + 1)
  return out
}
