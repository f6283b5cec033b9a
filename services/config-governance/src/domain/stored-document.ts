import { type SecretBox, SecretUnreadable } from '@switchboard/platform'
import { ConfigErrors } from '../errors.ts'
import { SECRET_PATHS } from './config-paths.ts'

/**
 * The three faces of a scope's document. Stored: secrets sealed. Plain: secrets readable, only inside this service
 * (the internal API of the services that call providers). Shown: every secret `"[REDACTED]"`, with its fingerprint
 * beside the document — what GET, history, diffs, audit records and events carry. Governance compares
 * fingerprinted documents, so a changed key is a changed path without anyone seeing it.
 */
export type Document = Record<string, unknown>

export const REDACTED = '[REDACTED]'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function getPath(doc: Document, path: string): unknown {
  let cur: unknown = doc
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined
    cur = cur[part]
  }
  return cur
}

/** A deep copy of `doc` with each present secret replaced by `map(value, path)`. */
function mapSecrets(doc: Document, map: (value: string, path: string) => unknown): Document {
  const out = structuredClone(doc)
  for (const path of SECRET_PATHS) {
    const parts = path.split('.')
    const leaf = parts.pop() as string
    let cur: unknown = out
    for (const part of parts) cur = isObject(cur) ? cur[part] : undefined
    if (isObject(cur) && typeof cur[leaf] === 'string') cur[leaf] = map(cur[leaf] as string, path)
  }
  return out
}

export const sealDocument = (box: SecretBox, plain: Document) => mapSecrets(plain, (v) => box.seal(v))
export const openDocument = (box: SecretBox, stored: Document) => mapSecrets(stored, (v) => box.open(v))
export const redactDocument = (stored: Document) => mapSecrets(stored, () => REDACTED)
/**
 * A secret's fingerprint, or — sealed under a key this replica no longer has (dropped after a rotation) — a marker
 * saying so: history stays readable when a secret of it no longer is.
 */
function fingerprintOf(box: SecretBox, sealed: string): string {
  try {
    return box.fingerprint(box.open(sealed))
  } catch (err) {
    if (err instanceof SecretUnreadable) return `unreadable:${sealed.split('.')[1] ?? ''}`
    throw err
  }
}

/** secrets as fingerprints: equal strings are the same secret (what change risk and diffs compare) */
export const fingerprintDocument = (box: SecretBox, stored: Document) =>
  mapSecrets(stored, (v) => fingerprintOf(box, v))

/**
 * The document with every secret sealed under an earlier key sealed again under the current one (what a rollback
 * writes back). A secret under a key this replica no longer has cannot be restored: 409 CONFIG_SECRET_UNREADABLE.
 */
export const resealDocument = (box: SecretBox, stored: Document) =>
  mapSecrets(stored, (v, path) => {
    if (!box.stale(v)) return v
    try {
      return box.seal(box.open(v))
    } catch (err) {
      if (err instanceof SecretUnreadable) throw new ConfigErrors.SecretUnreadable(path)
      throw err
    }
  })

/** `{path: fingerprint}` for each secret the stored document holds. */
export function secretFingerprints(box: SecretBox, stored: Document): Record<string, string> {
  const out: Record<string, string> = {}
  for (const path of SECRET_PATHS) {
    const v = getPath(stored, path)
    if (typeof v === 'string') out[path] = fingerprintOf(box, v)
  }
  return out
}

/** `{path: sealed value}` for each secret the stored document holds, as stored (what events carry, sealed). */
export function sealedSecrets(stored: Document): Record<string, string> {
  const out: Record<string, string> = {}
  for (const path of SECRET_PATHS) {
    const v = getPath(stored, path)
    if (typeof v === 'string') out[path] = v
  }
  return out
}

/**
 * The document after a PUT: each section present replaces the stored one whole, `null` removes it, absent ones stay.
 * A secret sent back as `"[REDACTED]"` (a client echoing what GET showed) keeps the stored value; the other secrets
 * are sealed, and any secret sealed under an earlier key is resealed under the current one. Returns the stored form, or the path of a `"[REDACTED]"` with nothing stored to keep.
 */
export function applySections(
  box: SecretBox,
  stored: Document,
  sections: Record<string, Document | null>,
): { document: Document } | { unknownSecret: string } {
  const next: Document = structuredClone(stored)
  for (const [name, section] of Object.entries(sections)) {
    if (section === null) delete next[name]
    else next[name] = structuredClone(section)
  }
  for (const path of SECRET_PATHS) {
    const given = getPath(next, path)
    if (typeof given !== 'string') continue
    const parts = path.split('.')
    const leaf = parts.pop() as string
    const holder = parts.reduce<unknown>((cur, p) => (isObject(cur) ? cur[p] : undefined), next) as Document
    if (!((parts[0] as string) in sections)) {
      // an untouched section keeps its secret; a write reseals it when a key rotation left it behind
      if (box.stale(given)) holder[leaf] = box.seal(box.open(given))
      continue
    }
    if (given === REDACTED) {
      const kept = getPath(stored, path)
      if (typeof kept !== 'string') return { unknownSecret: path }
      holder[leaf] = box.stale(kept) ? box.seal(box.open(kept)) : kept
    } else {
      holder[leaf] = box.seal(given)
    }
  }
  return { document: next }
}
