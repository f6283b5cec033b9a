/**
 * The registry of the fleet's units: one line per unit, read by the gateway (which prefix goes to which
 * service), the CLI (what `npm start` and `npm run fleet` run, in which order, on which ports), the deploy/k8s
 * manifests test and every service's descriptor (its name, port and prefixes). docs/architecture.md §1 is the
 * ownership table this encodes.
 *
 * A unit without `dir` is planned, not built: the gateway routes its prefixes and answers 503 until it exists.
 * Adding a service = its folder with a descriptor, and `dir` on its line here.
 */
export interface UnitEntry {
  readonly name: string
  /** its default port (production, compose, `npm run fleet` without `--service-port`) */
  readonly port: number
  /** repository folder holding `src/main.ts` and `src/build.ts`; absent while the unit is not built */
  readonly dir?: string
  /**
   * public path prefixes the gateway routes to it, matched by whole segments, the most specific first; a `:param`
   * segment matches any one segment (a route of this unit under another unit's prefix)
   */
  readonly prefixes: readonly string[]
}

const unit = <const U extends UnitEntry>(u: U) => u

export const UNITS = {
  gateway: unit({ name: 'gateway', port: 8080, dir: 'gateway', prefixes: [] }),
  identity: unit({
    name: 'identity',
    port: 8101,
    dir: 'services/identity',
    prefixes: ['/api/v1/auth', '/api/security', '/api/agents', '/api/customers'],
  }),
  tickets: unit({
    name: 'tickets',
    port: 8102,
    dir: 'services/tickets',
    prefixes: [
      '/api/tickets',
      '/api/custom-fields',
      '/api/sla',
      '/api/satisfactions',
      '/api/satisfaction',
      '/api/macros',
      '/public/csat',
      '/csat', // the CSAT page (HTML)
      // the widget's "leave a message" (issue 21)
      '/public/widget/tickets',
    ],
  }),
  audit: unit({ name: 'audit', port: 8103, dir: 'services/audit', prefixes: ['/api/audit'] }),
  conversations: unit({
    name: 'conversations',
    port: 8104,
    dir: 'services/conversations',
    prefixes: [
      '/api/omni',
      '/api/session-transfer',
      '/api/shifts',
      '/uploads',
      // routing and sessions are conversations', under identity's /api/agents and /api/customers (more specific wins)
      '/api/agents/find-available',
      '/api/agents/:id/assign-session',
      '/api/agents/:id/release-session',
      '/api/customers/:id/activity',
      // the widget's availability and a visitor's rating of its conversation (issue 21)
      '/public/widget/availability',
      '/public/widget/sessions',
    ],
  }),
  'ai-orchestrator': unit({
    name: 'ai-orchestrator',
    port: 8105,
    dir: 'services/ai-orchestrator',
    prefixes: ['/api/v1/ai', '/api/knowledge-docs', '/api/assist', '/public/kb', '/help'],
  }),
  statistics: unit({
    name: 'statistics',
    port: 8106,
    dir: 'services/statistics',
    prefixes: ['/api/statistics', '/api/v1/metrics/ingest'],
  }),
  'config-governance': unit({
    name: 'config-governance',
    port: 8107,
    dir: 'services/config-governance',
    prefixes: ['/api/security/config', '/api/apps', '/public/portal'],
  }),
  'realtime-voice': unit({
    name: 'realtime-voice',
    port: 8108,
    dir: 'services/realtime-voice',
    prefixes: ['/api/v1/ws', '/api/v1/webrtc', '/api/voice'],
  }),
} as const satisfies Record<string, UnitEntry>

export type UnitName = keyof typeof UNITS
/** Units that are built (have a folder), in start order: services first, the gateway last. */
export type BuiltUnit = { [K in UnitName]: (typeof UNITS)[K] extends { dir: string } ? K : never }[UnitName]
export type ServiceName = Exclude<BuiltUnit, 'gateway'>

const ALL = Object.values(UNITS) as readonly UnitEntry[]

/** Every service the gateway fronts, built or planned. */
export const SERVICE_UNITS: readonly UnitEntry[] = ALL.filter((u) => u.name !== 'gateway')

/** The services that exist, in registry order (the order the runners start them). */
export const BUILT_SERVICES = SERVICE_UNITS.filter((u) => u.dir !== undefined).map((u) => u.name) as ServiceName[]

/** The gateway's variable listing a service's replicas: `ai-orchestrator` → `UPSTREAM_AI_ORCHESTRATOR`. */
export const upstreamEnvOf = (service: string) => `UPSTREAM_${service.toUpperCase().replaceAll('-', '_')}`

/** Public prefix → owning service, for every service of the registry (planned ones included). */
export const ROUTE_TABLE: ReadonlyArray<readonly [prefix: string, service: string]> = SERVICE_UNITS.flatMap((u) =>
  u.prefixes.map((p) => [p, u.name] as const),
)
