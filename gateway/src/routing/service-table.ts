import { ROUTE_TABLE } from '@switchboard/contracts'

/**
 * Public path prefix → owning service. The table is the unit registry's (packages/contracts/src/units.ts), so a
 * new service is routed by its line there; `extra` adds prefixes of units outside the registry
 * (`GATEWAY_EXTRA_ROUTES`). Matching is by whole segments, longest prefix first.
 */
export function createServiceTable(extra: Readonly<Record<string, string>> = {}) {
  const table = [...ROUTE_TABLE, ...Object.entries(extra)]
  // Longest first, each with its `prefix/` form made once (this runs on every request).
  const sorted = table
    .sort((a, b) => b[0].length - a[0].length)
    .map(([prefix, service]) => ({ prefix, under: `${prefix}/`, service }))
  return {
    entries: table as ReadonlyArray<readonly [prefix: string, service: string]>,
    /** the service owning a path (query string excluded), or undefined when no prefix matches */
    serviceFor(path: string): string | undefined {
      for (const { prefix, under, service } of sorted) {
        if (path === prefix || path.startsWith(under)) return service
      }
      return undefined
    },
  }
}

export type ServiceTable = ReturnType<typeof createServiceTable>

// Encoded dots, slashes, backslashes and letters have no honest use in a path; decoded they could make the
// gateway classify one path while the service routes another.
const AMBIGUOUS = /%(2e|2f|5c|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a])|\\|\/\/|(^|\/)\.\.?(\/|$)/i

export function isCanonicalPath(path: string): boolean {
  return !AMBIGUOUS.test(path)
}
