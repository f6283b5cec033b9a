import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

/** An event's data checked against its contract; a mismatch is thrown, not skipped. */
export function payload<T extends TSchema>(def: { type: string; data: T }, data: unknown): Static<T> {
  if (!Value.Check(def.data, data)) {
    const first = Value.Errors(def.data, data).First()
    // thrown, not skipped: redelivered, then dead-lettered where an operator sees it (docs/conventions.md §14)
    throw new Error(`${def.type} does not match its contract: ${first?.path || '/'} ${first?.message ?? ''}`)
  }
  return data as Static<T>
}
