/** Reading and editing a scope's document by dotted path (`knowledge_provider.primary.base_url`). */
import type { Doc } from './api.ts'

export function get(doc: unknown, path: string): unknown {
  let cur = doc
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Doc)[part]
  }
  return cur
}

/** A copy of `doc` with `path` set (`undefined`: removed, and an object left empty with it). */
export function setPath(doc: Doc, path: string, value: unknown): Doc {
  const [head, ...rest] = path.split('.') as [string, ...string[]]
  const out = { ...doc }
  if (rest.length === 0) {
    if (value === undefined) delete out[head]
    else out[head] = value
    return out
  }
  const child = setPath((out[head] ?? {}) as Doc, rest.join('.'), value)
  if (Object.keys(child).length === 0) delete out[head]
  else out[head] = child
  return out
}

export const show = (v: unknown) => (v === undefined || v === null ? '' : String(v))
