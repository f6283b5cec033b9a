/**
 * The admin area's sections: path, name and who may open each — exactly what its API demands, so a link is shown
 * only to those the API would answer. A section's screen is its own lazy chunk (the agent's first load carries
 * none of them). Another admin screen joins by one entry here.
 */
import type { ComponentType } from 'react'
import type { Access } from '../../lib/access.ts'
import '../governance/nav-messages.ts'
import '../supervision/nav-messages.ts'
import '../settings-knowledge/nav-messages.ts'
import '../settings-people/nav-messages.ts'
import '../settings-fields/nav-messages.ts'
import '../settings-workspaces/nav-messages.ts'
import '../settings-service/nav-messages.ts'
import '../settings-ai-providers/nav-messages.ts'

export interface AdminSection {
  id: string
  /** the section's root; its screen gets every path under it */
  path: string
  /** i18n key of the link and the page's name */
  label: string
  allowed(access: Access): boolean
  load(): Promise<{ default: ComponentType<{ path: string }> }>
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  {
    id: 'reports',
    path: '/admin/reports',
    label: 'admin.nav.reports',
    // GET /api/statistics/*: statistics.read (supervisors and admins)
    allowed: (a) => a.has('statistics.read'),
    load: async () => ({ default: (await import('../reports/index.tsx')).ReportsScreen }),
  },
  {
    id: 'supervision',
    path: '/admin/supervision',
    label: 'admin.nav.supervision',
    // GET /api/agents, /api/session-transfer/waiting (every agent may), /api/statistics/lag (statistics.read);
    // shown to those who watch others' work: statistics.read and workspace.supervise (supervisors, admins' `*`)
    allowed: (a) => a.has('statistics.read') && a.has('workspace.supervise'),
    load: async () => ({ default: (await import('../supervision/index.tsx')).SupervisionScreen }),
  },
  {
    id: 'audit',
    path: '/admin/audit',
    label: 'admin.nav.audit',
    // GET /api/audit/logs: audit.read
    allowed: (a) => a.has('audit.read'),
    load: async () => ({ default: (await import('../audit/index.tsx')).AuditScreen }),
  },
  {
    id: 'operations',
    path: '/admin/operations',
    label: 'admin.nav.operations',
    // the gateway's /api/ops/* and /api/system/health: a platform operator (admin_reach 'platform') holding `*`;
    // a tenant administrator holds `*` too, but the bus and the units are every tenant's (the gateway refuses it)
    allowed: (a) => a.kind === 'admin' && a.platform && a.has('*'),
    load: async () => ({ default: (await import('../operations/index.tsx')).OperationsScreen }),
  },
  {
    id: 'configuration',
    path: '/admin/configuration',
    label: 'admin.nav.configuration',
    // GET /api/security/config/*: security.read (writes security.write, checked by the API)
    allowed: (a) => a.has('security.read'),
    load: async () => ({ default: (await import('../governance/index.tsx')).GovernanceScreen }),
  },
  {
    id: 'people',
    path: '/admin/people',
    label: 'admin.nav.people',
    // GET /api/agents with POST /api/security/users/query: security.read (agents hold agents.read only); the screen's
    // writes show each to holders of its API's permission (agents.write, security.write)
    allowed: (a) => a.has('security.read') && a.has('agents.read'),
    load: async () => ({ default: (await import('../settings-people/index.tsx')).PeopleScreen }),
  },
  {
    id: 'knowledge',
    path: '/admin/knowledge',
    label: 'admin.nav.knowledge',
    // /api/knowledge-docs (knowledge.*) and /api/macros (macros.*): agents read both, so the screen is for writers
    allowed: (a) => a.has('knowledge.write') || a.has('macros.write'),
    load: async () => ({ default: (await import('../settings-knowledge/index.tsx')).KnowledgeScreen }),
  },
  {
    id: 'workspaces',
    path: '/admin/workspaces',
    label: 'admin.nav.workspaces',
    // /api/security/tenants*: security.read to read, and writes a platform administrator's (identity refuses a
    // tenant administrator, who holds `*` too); the screen shows writes only to a session bound to no tenant
    allowed: (a) => a.kind === 'admin' && a.platform && a.has('security.read'),
    load: async () => ({ default: (await import('../settings-workspaces/index.tsx')).WorkspacesScreen }),
  },
  {
    id: 'fields',
    path: '/admin/fields',
    label: 'admin.nav.fields',
    // writes to /api/custom-fields: custom_fields.write (admins); agents hold custom_fields.read only
    allowed: (a) => a.has('custom_fields.write'),
    load: async () => ({ default: (await import('../settings-fields/index.tsx')).FieldsScreen }),
  },
  {
    id: 'service',
    path: '/admin/service',
    label: 'admin.nav.service',
    // /api/sla/configs and business hours (writes sla.write; agents read sla only), /api/tickets/settings (writes
    // tickets.settings): shown to those who may change them
    allowed: (a) => a.has('sla.write') || a.has('tickets.settings'),
    load: async () => ({ default: (await import('../settings-service/index.tsx')).ServiceScreen }),
  },
  {
    id: 'ai-providers',
    path: '/admin/ai-providers',
    label: 'admin.nav.aiProviders',
    // GET /api/v1/ai/status (any staff) and POST /api/v1/ai/circuit-breaker/reset: the providers and their breakers
    // are every tenant's, so the section is a platform administrator's (the reset refuses anyone else, 403)
    allowed: (a) => a.kind === 'admin' && a.platform,
    load: async () => ({ default: (await import('../settings-ai-providers/index.tsx')).AiProvidersScreen }),
  },
]

export function isAdminPath(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/')
}

export function sectionOf(path: string): AdminSection | undefined {
  return ADMIN_SECTIONS.find((s) => path === s.path || path.startsWith(`${s.path}/`))
}
