/** Role → permissions. The single table of the fleet (API-NOTES.md, Principals and permissions). */
export type PermissionTable = Readonly<Record<string, readonly string[]>>

export const RESOURCES = [
  'customers',
  'agents',
  'tickets',
  'session_transfer',
  'satisfaction',
  'workspace',
  'macros',
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

export const DEFAULT_PERMISSION_TABLE: PermissionTable = {
  admin: ['*'],
  agent: [
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
  ],
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

/** The resource a management path acts on, or undefined for paths outside the table (admin only then). */
export function resourceForPath(path: string): Resource | undefined {
  const m = /^\/api\/([^/]+)/.exec(pathOnly(path))
  if (!m?.[1]) return undefined
  return Object.hasOwn(SEGMENT_RESOURCE, m[1]) ? SEGMENT_RESOURCE[m[1]] : undefined
}

/** `<resource>.read` for GET/HEAD, `.write` otherwise; `*` when the path maps to no resource. */
/** POSTs that only read: previews the spec files under the read permission. */
const READ_ONLY_POSTS = new Set(['/api/security/users/query'])

export function requiredPermission(method: string, path: string): string {
  const resource = resourceForPath(path)
  if (!resource) return '*'
  const m = method.toUpperCase()
  const reads = m === 'GET' || m === 'HEAD' || (m === 'POST' && READ_ONLY_POSTS.has(path.replace(/\/+$/, '')))
  return `${resource}.${reads ? 'read' : 'write'}`
}
