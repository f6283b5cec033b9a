// A scope's document seen as dotted leaf paths (`llm.model`, `knowledge_provider.primary.search.top_k`): what change
// risk, verification templates and history diffs compare. Pure; secrets stay opaque strings here and never leave
// through a diff.
import { isDeepStrictEqual } from 'node:util'
import { CONFIG_SECTIONS, type ConfigSection } from '@switchboard/contracts'

/** A scope's overrides, section by section (every section and every field optional). */
export type ConfigDocument = Partial<Record<ConfigSection, Record<string, unknown>>>

/** What outputs show in place of a secret. */
export const REDACTED = '[REDACTED]'

/** The leaf paths that hold secrets (provider API keys). */
export const SECRET_PATHS: readonly string[] = [
  'llm.api_key',
  'knowledge_provider.primary.api_key',
  'knowledge_provider.compatibility.api_key',
]

const secrets = new Set(SECRET_PATHS)

/** Does the dotted path hold a secret? */
export const isSecretPath = (path: string) => secrets.has(path)

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The document's leaves by dotted path, in document order. Arrays are leaves; `undefined`, `null` and empty objects
 * are no value, so `{portal: {}}` and `{}` have the same (no) leaves. Only the config sections are read.
 */
export function leafPaths(doc: ConfigDocument | Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>()
  const walk = (value: unknown, path: string) => {
    if (value === undefined || value === null) return
    if (!isObject(value)) {
      out.set(path, value)
      return
    }
    for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`)
  }
  const sections = doc as Record<string, unknown>
  for (const section of CONFIG_SECTIONS) walk(sections[section], section)
  return out
}

/** One changed leaf; `before`/`after` is `null` on the side where the leaf is absent. */
export interface PathChange {
  path: string
  type: 'added' | 'removed' | 'updated'
  before: unknown
  after: unknown
}

export interface DocumentDiff {
  /** sorted */
  changed_paths: string[]
  /** sorted: the sections (first path segment) with a changed leaf */
  changed_sections: string[]
  /** one per changed path, in path order; secrets shown as `"[REDACTED]"` */
  changes: PathChange[]
}

const shown = (path: string, value: unknown) => (isSecretPath(path) ? REDACTED : value)

/**
 * The leaves that differ between two documents. Values are compared as given: at secret paths the caller passes
 * fingerprints, so a new key is an `updated` leaf while both sides still read `"[REDACTED]"`.
 */
export function diffDocuments(before: ConfigDocument, after: ConfigDocument): DocumentDiff {
  const was = leafPaths(before)
  const now = leafPaths(after)
  const paths = [...new Set([...was.keys(), ...now.keys()])].sort()
  const changes: PathChange[] = []
  for (const path of paths) {
    const b = was.get(path)
    const a = now.get(path)
    if (!was.has(path)) changes.push({ path, type: 'added', before: null, after: shown(path, a) })
    else if (!now.has(path)) changes.push({ path, type: 'removed', before: shown(path, b), after: null })
    else if (!isDeepStrictEqual(b, a))
      changes.push({ path, type: 'updated', before: shown(path, b), after: shown(path, a) })
  }
  const changed_paths = changes.map((c) => c.path)
  const changed_sections = [...new Set(changed_paths.map(sectionOf))].sort()
  return { changed_paths, changed_sections, changes }
}

/** The section a dotted path belongs to. */
export const sectionOf = (path: string) => path.split('.')[0] as string

/** A deep copy of `doc` with each present secret leaf replaced by `mask(value, path)`. */
export function maskSecrets<T extends ConfigDocument | Record<string, unknown>>(
  doc: T,
  mask: (value: unknown, path: string) => unknown = () => REDACTED,
): T {
  const out = structuredClone(doc) as Record<string, unknown>
  for (const path of SECRET_PATHS) {
    const parts = path.split('.')
    const leaf = parts.pop() as string
    let holder: unknown = out
    for (const part of parts) holder = isObject(holder) ? holder[part] : undefined
    if (isObject(holder) && holder[leaf] !== undefined && holder[leaf] !== null) {
      holder[leaf] = mask(holder[leaf], path)
    }
  }
  return out as T
}
