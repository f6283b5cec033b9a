import { ERASED_TEXT } from '@switchboard/contracts'
import type { SecretBox } from '@switchboard/platform'
import { isSecretPath } from './config-paths.ts'
import { type Document, secretFingerprints } from './stored-document.ts'

/**
 * A tenant's erasure keeps its governance history readable as a history — which paths each change moved, who was the
 * same person as whom — without what anyone wrote or was called. Every string of the tenant (a document's values,
 * references, reasons, actor ids) becomes `[erased:N]`: equal strings the same N, different ones different, numbered
 * in the order met, so nothing of the original survives. Change risk, approvals matched by reference, same-actor
 * rules and diffs then come out as they did.
 */
export function erasedTokens() {
  const seen = new Map<string, string>()
  return (value: string) => {
    let token = seen.get(value)
    if (token === undefined) {
      token = `${ERASED_TEXT.slice(0, -1)}:${seen.size + 1}]`
      seen.set(value, token)
    }
    return token
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A stored document with every string leaf (arrays' items too) replaced by its token; numbers and booleans stay. A
 * sealed secret is told apart by its fingerprint (the same key sealed twice is one value) and sealed again as its
 * token, so a changed key is still a changed path.
 */
export function eraseDocument(box: SecretBox, doc: Document, token: (value: string) => string): Document {
  const prints = secretFingerprints(box, doc)
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      return isSecretPath(path) ? box.seal(token(`secret ${prints[path] ?? value}`)) : token(value)
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, path))
    if (isObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]))
    }
    return value
  }
  return walk(doc, '') as Document
}
