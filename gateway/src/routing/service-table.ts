/**
 * Public path prefix → owning service (ARCHITECTURE.md §1). A new service is one line here plus its
 * UPSTREAM_<NAME> variable. Matching is by whole segments, longest prefix first.
 */
export const SERVICE_TABLE: ReadonlyArray<readonly [prefix: string, service: string]> = [
  ['/api/v1/auth', 'identity'],
  ['/api/security/config', 'config-governance'],
  ['/api/security', 'identity'],
  ['/api/agents', 'identity'],
  ['/api/customers', 'identity'],
  ['/api/tickets', 'tickets'],
  ['/api/custom-fields', 'tickets'],
  ['/api/sla', 'tickets'],
  ['/api/satisfactions', 'tickets'],
  ['/api/satisfaction', 'tickets'],
  ['/public/csat', 'tickets'],
  ['/api/audit', 'audit'],
  ['/api/omni', 'conversations'],
  ['/api/session-transfer', 'conversations'],
  ['/api/macros', 'conversations'],
  ['/api/shifts', 'conversations'],
  ['/api/assist', 'conversations'],
  ['/api/v1/ai', 'ai-orchestrator'],
  ['/api/knowledge-docs', 'ai-orchestrator'],
  ['/public/kb', 'ai-orchestrator'],
  ['/api/statistics', 'statistics'],
  ['/api/v1/metrics/ingest', 'statistics'],
  ['/api/v1/ws', 'realtime-voice'],
  ['/api/v1/webrtc', 'realtime-voice'],
  ['/api/voice', 'realtime-voice'],
]

// Longest first, each with its `prefix/` form made once (this runs on every request).
const SORTED = [...SERVICE_TABLE]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([prefix, service]) => ({ prefix, under: `${prefix}/`, service }))

/** The service owning a path (query string excluded), or undefined when no prefix matches. */
export function serviceFor(path: string): string | undefined {
  for (const { prefix, under, service } of SORTED) {
    if (path === prefix || path.startsWith(under)) return service
  }
  return undefined
}

// Encoded dots, slashes, backslashes and letters have no honest use in a path; decoded they could make the
// gateway classify one path while the service routes another.
const AMBIGUOUS = /%(2e|2f|5c|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a])|\\|\/\/|(^|\/)\.\.?(\/|$)/i

export function isCanonicalPath(path: string): boolean {
  return !AMBIGUOUS.test(path)
}

/** Round-robin over one service's replicas; the counter lives in the instance that built it. */
export function createUpstreamPicker(upstreams: Record<string, string[]>) {
  const next = new Map<string, number>()
  return (service: string): string | undefined => {
    const urls = upstreams[service]
    if (!urls || urls.length === 0) return undefined
    const i = next.get(service) ?? 0
    next.set(service, (i + 1) % urls.length)
    return urls[i]
  }
}
