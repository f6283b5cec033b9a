import { isDeepStrictEqual } from 'node:util'

export type ChangeType = 'added' | 'removed' | 'updated'
export interface Change {
  /** dotted path; array items by index (`tags.0`); '' for the snapshot itself */
  path: string
  type: ChangeType
  /** null when added */
  before: unknown
  /** null when removed */
  after: unknown
}
export interface Diff {
  has_before: boolean
  has_after: boolean
  changed: boolean
  change_count: number
  changed_paths: string[]
  changes: Change[]
}

type Container = Record<string, unknown> | unknown[]

const present = (v: unknown) => v !== null && v !== undefined
const isContainer = (v: unknown): v is Container => v !== null && typeof v === 'object'
const sameKind = (a: Container, b: Container) => Array.isArray(a) === Array.isArray(b)
const join = (path: string, key: string) => (path ? `${path}.${key}` : key)
// Deeper than any snapshot we write; past it a subtree is compared whole rather than walked.
const MAX_DEPTH = 64

function keysOf(a: Container, b: Container): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => String(i))
  }
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
}

const has = (c: Container, key: string) => (Array.isArray(c) ? Number(key) < c.length : Object.hasOwn(c, key))
const at = (c: Container, key: string) => (c as Record<string, unknown>)[key]

function walk(a: unknown, b: unknown, path: string, depth: number, out: Change[]) {
  if (isContainer(a) && isContainer(b) && sameKind(a, b) && depth < MAX_DEPTH) {
    for (const key of keysOf(a, b)) {
      const p = join(path, key)
      const inA = has(a, key)
      const inB = has(b, key)
      if (inA && !inB) out.push({ path: p, type: 'removed', before: at(a, key), after: null })
      else if (!inA && inB) out.push({ path: p, type: 'added', before: null, after: at(b, key) })
      else walk(at(a, key), at(b, key), p, depth + 1, out)
    }
    return
  }
  if (!isDeepStrictEqual(a, b)) out.push({ path, type: 'updated', before: a, after: b })
}

/**
 * Field-level differences between an audit record's before and after snapshots. Objects are walked by
 * key (sorted, so the output is stable), arrays by index; a value whose kind changes (object → array,
 * object → string) is one `updated` change at its path. A missing snapshot counts as empty, so a create
 * lists every top-level field as `added` and a delete every one as `removed`.
 */
export function diffSnapshots(before: unknown, after: unknown): Diff {
  const changes: Change[] = []
  const hasBefore = present(before)
  const hasAfter = present(after)
  if (hasBefore && hasAfter) walk(before, after, '', 0, changes)
  else if (hasAfter) walk(emptyLike(after), after, '', 0, changes)
  else if (hasBefore) walk(before, emptyLike(before), '', 0, changes)
  return {
    has_before: hasBefore,
    has_after: hasAfter,
    changed: changes.length > 0,
    change_count: changes.length,
    changed_paths: changes.map((c) => c.path),
    changes,
  }
}

// The counterpart of a lone snapshot: an empty container of its kind, or null for a scalar.
function emptyLike(v: unknown): unknown {
  if (Array.isArray(v)) return []
  return isContainer(v) ? {} : null
}
