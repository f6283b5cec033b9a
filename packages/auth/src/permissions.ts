/** Role → permissions. The single table of the fleet (docs/api.md §3). */
export type PermissionTable = Readonly<Record<string, readonly string[]>>

export const RESOURCES = [
  'customers',
  'agents',
  'tickets',
  'session_transfer',
  'satisfaction',
  'workspace',
  'macros',
  'integrations',
  'custom_fields',
  'statistics',
  'sla',
  'shift',
  'knowledge',
  'assist',
  'voice',
  'audit',
  'security',
] as const
export type Resource = (typeof RESOURCES)[number]

const rw = (r: Resource) => [`${r}.read`, `${r}.write`]
const r = (res: Resource) => `${res}.read`

const AGENT_PERMISSIONS = [
  ...rw('tickets'),
  ...rw('session_transfer'),
  ...rw('satisfaction'),
  ...rw('voice'),
  ...rw('workspace'),
  r('customers'),
  r('agents'),
  r('knowledge'),
  r('assist'),
  r('custom_fields'),
  r('macros'),
  // a ticket's SLA targets and violations, which the agent console shows on the ticket it works (configs stay admin's)
  r('sla'),
  // the apps of the agent console (the earlier system's agents held integrations.read): agents open them, administrators configure them
  r('integrations'),
]

/**
 * Reading and posting in any conversation of the principal's scope, not only those assigned to it: what the
 * conversations service checks for supervisors (an agent handles only its own sessions).
 */
export const SUPERVISE_PERMISSION = 'workspace.supervise'

export const DEFAULT_PERMISSION_TABLE: PermissionTable = {
  admin: ['*'],
  supervisor: [...AGENT_PERMISSIONS, SUPERVISE_PERMISSION, r('statistics'), 'shift.*'],
  agent: AGENT_PERMISSIONS,
  customer: [],
  end_user: [],
}

/** Union of the roles' permissions and any explicit ones (service tokens carry theirs explicitly). */
export function expandPermissions(
  roles: readonly string[],
  explicit: readonly string[] = [],
  table: PermissionTable = DEFAULT_PERMISSION_TABLE,
): string[] {
  const out = new Set<string>()
  for (const role of roles) for (const p of table[role] ?? []) out.add(p)
  for (const p of explicit) out.add(p)
  return [...out].sort()
}

/** `*` grants everything; `<resource>.*` grants every action on that resource. */
export function hasPermission(perms: readonly string[], needed: string): boolean {
  if (perms.includes('*') || perms.includes(needed)) return true
  const dot = needed.indexOf('.')
  return dot > 0 && perms.includes(`${needed.slice(0, dot)}.*`)
}

/** First path segment under /api/ → resource. Both spellings of satisfaction exist in the earlier API. */
const SEGMENT_RESOURCE: Readonly<Record<string, Resource>> = {
  customers: 'customers',
  agents: 'agents',
  tickets: 'tickets',
  'session-transfer': 'session_transfer',
  satisfactions: 'satisfaction',
  satisfaction: 'satisfaction',
  omni: 'workspace',
  macros: 'macros',
  apps: 'integrations',
  'custom-fields': 'custom_fields',
  statistics: 'statistics',
  sla: 'sla',
  shifts: 'shift',
  'knowledge-docs': 'knowledge',
  assist: 'assist',
  voice: 'voice',
  audit: 'audit',
  security: 'security',
}

function pathOnly(path: string): string {
  const q = path.indexOf('?')
  return q === -1 ? path : path.slice(0, q)
}

/** Paths whose resource is not their first segment's: a ticket's rating is satisfaction's, as it was in the earlier system. */
const PATH_RESOURCE: ReadonlyArray<readonly [RegExp, Resource]> = [
  [/^\/api\/tickets\/[^/]+\/satisfaction\/?$/, 'satisfaction'],
]

/** The resource a management path acts on, or undefined for paths outside the table (admin only then). */
export function resourceForPath(path: string): Resource | undefined {
  const bare = pathOnly(path)
  for (const [pattern, resource] of PATH_RESOURCE) if (pattern.test(bare)) return resource
  const m = /^\/api\/([^/]+)/.exec(bare)
  if (!m?.[1]) return undefined
  return Object.hasOwn(SEGMENT_RESOURCE, m[1]) ? SEGMENT_RESOURCE[m[1]] : undefined
}

/** `<resource>.read` for GET/HEAD, `.write` otherwise; `*` when the path maps to no resource. */
/**
 * POSTs that only read (the batch preview; assist suggestions, which agents ask with a body), so they need the read
 * permission (docs/api.md §3).
 */
const READ_ONLY_POSTS = new Set(['/api/security/users/query', '/api/assist/suggest'])

/**
 * Applying a macro leaves the macro as it is: it renders its text (and, on a ticket, adds a comment that the tickets
 * service authorises as a ticket write), so agents, who read macros, may apply them.
 */
const READ_ONLY_POST_PATTERNS = [/^\/api\/macros\/[^/]+\/apply$/]

/** Writes to the caller's own record only: an agent sets its own presence with the agents read it holds. */
const OWN_RECORD_WRITES = new Set(['PUT /api/agents/me/status'])

export function requiredPermission(method: string, path: string): string {
  const resource = resourceForPath(path)
  if (!resource) return '*'
  const m = method.toUpperCase()
  const bare = pathOnly(path).replace(/\/+$/, '')
  const readOnlyPost = READ_ONLY_POSTS.has(bare) || READ_ONLY_POST_PATTERNS.some((re) => re.test(bare))
  const reads = m === 'GET' || m === 'HEAD' || (m === 'POST' && readOnlyPost) || OWN_RECORD_WRITES.has(`${m} ${bare}`)
  return `${resource}.${reads ? 'read' : 'write'}`
}
