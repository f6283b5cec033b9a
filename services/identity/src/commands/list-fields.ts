import { parseList } from '../domain/lists.ts'
import { IdentityErrors } from '../errors.ts'

/**
 * A tags/skills field as stored: an array, or a comma-separated string split into one (domain/lists.ts); 400
 * naming the field when it breaks the bounds. Undefined stays undefined (not given).
 */
export function listField(field: string, value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const parsed = parseList(value)
  if (!parsed.ok) throw new IdentityErrors.InvalidInput(`${field}: ${parsed.problem}`)
  return parsed.items
}
