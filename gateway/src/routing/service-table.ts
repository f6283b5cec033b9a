import { ROUTE_TABLE } from '@switchboard/contracts'

/** A route-table pattern split into its segments; `null` stands for a `:param` segment (any one non-empty segment). */
type Segments = ReadonlyArray<string | null>

const segmentsOf = (pattern: string): Segments =>
  pattern
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith(':') ? null : s))

/**
 * Which of two patterns is more specific: more segments first (a longer prefix), then, segment by segment, a
 * literal before a `:param`. So `/api/agents/:id/assign-session` beats `/api/agents`, and `/api/agents/stats/x`
 * would beat `/api/agents/:id/x`. Only the registry's own patterns are compared (at start), never a request.
 */
function moreSpecificFirst(a: Segments, b: Segments): number {
  if (a.length !== b.length) return b.length - a.length
  for (let i = 0; i < a.length; i++) {
    if ((a[i] === null) !== (b[i] === null)) return a[i] === null ? 1 : -1
  }
  return 0
}

/** Whether the path's leading segments are the pattern's: whole segments only, a `:param` takes any non-empty one. */
function matches(pattern: Segments, path: readonly string[]): boolean {
  if (path.length < pattern.length) return false
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]
    if (want === null ? path[i] === '' : path[i] !== want) return false
  }
  return true
}

/**
 * Public path prefix → owning service. The table is the unit registry's (packages/contracts/src/units.ts), so a
 * new service is routed by its line there; `extra` adds prefixes of units outside the registry
 * (`GATEWAY_EXTRA_ROUTES`). Matching is by whole segments, the most specific prefix first (more segments, then
 * literal segments before `:param` ones): a prefix may name a route under another unit's prefix, such as
 * conversations' `/api/agents/:id/assign-session` under identity's `/api/agents` (docs/architecture.md §1).
 */
export function createServiceTable(extra: Readonly<Record<string, string>> = {}) {
  const table = [...ROUTE_TABLE, ...Object.entries(extra)]
  // Each pattern split once, most specific first (this runs on every request).
  const sorted = table
    .map(([prefix, service]) => ({ segments: segmentsOf(prefix), service }))
    .sort((a, b) => moreSpecificFirst(a.segments, b.segments))
  return {
    entries: table as ReadonlyArray<readonly [prefix: string, service: string]>,
    /** the service owning a path (query string excluded), or undefined when no prefix matches */
    serviceFor(path: string): string | undefined {
      if (!path.startsWith('/')) return undefined
      const segments = path.split('/').slice(1)
      for (const { segments: pattern, service } of sorted) {
        if (matches(pattern, segments)) return service
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
