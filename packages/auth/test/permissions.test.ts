import t from 'tap'
import {
  DEFAULT_PERMISSION_TABLE,
  expandPermissions,
  hasPermission,
  requiredPermission,
  resourceForPath,
} from '../src/permissions.ts'
import { kindAllowed, routeClass } from '../src/routes.ts'

t.test('expansion', async (t) => {
  t.same(expandPermissions(['admin']), ['*'])
  t.same(expandPermissions(['customer']), [])
  t.same(expandPermissions(['nobody']), [])
  const agent = expandPermissions(['agent'])
  for (const p of [
    'tickets.write',
    'workspace.write',
    'voice.write',
    'customers.read',
    'macros.read',
    'assist.read',
    'integrations.read',
    'sla.read',
  ]) {
    t.ok(agent.includes(p), p)
  }
  for (const p of [
    'customers.write',
    'audit.read',
    'security.read',
    'statistics.read',
    'sla.write',
    'integrations.write',
  ]) {
    t.notOk(agent.includes(p), `not ${p}`)
  }
  t.same(expandPermissions([], ['metrics.write']), ['metrics.write'], 'explicit permissions kept')
  t.same(expandPermissions(['ops'], [], { ops: ['audit.read'] }), ['audit.read'], 'override table')
  t.ok(Object.isFrozen(DEFAULT_PERMISSION_TABLE) || DEFAULT_PERMISSION_TABLE.admin?.[0] === '*')
})

t.test('wildcards', async (t) => {
  t.ok(hasPermission(['*'], 'security.write'))
  t.ok(hasPermission(['tickets.*'], 'tickets.write'))
  t.notOk(hasPermission(['tickets.*'], 'tickets_x.write'))
  t.notOk(hasPermission(['tickets.read'], 'tickets.write'))
  t.notOk(hasPermission(['tickets.*'], '*'))
  t.notOk(hasPermission([], 'tickets.read'))
})

t.test('resource for path', async (t) => {
  const cases: [string, string | undefined][] = [
    ['/api/customers', 'customers'],
    ['/api/customers/1/revoke-tokens', 'customers'],
    ['/api/agents/x', 'agents'],
    ['/api/tickets?x=1', 'tickets'],
    ['/api/session-transfer/waiting', 'session_transfer'],
    ['/api/satisfactions', 'satisfaction'],
    ['/api/satisfaction/1', 'satisfaction'],
    ['/api/tickets/1/satisfaction', 'satisfaction'],
    ['/api/tickets/1/satisfaction?x=1', 'satisfaction'],
    ['/api/tickets/1/comments', 'tickets'],
    ['/api/tickets/satisfaction', 'tickets'],
    ['/api/omni/sessions/1/messages', 'workspace'],
    ['/api/macros', 'macros'],
    ['/api/apps/integrations', 'integrations'],
    ['/api/apps/integrations/0193abc', 'integrations'],
    ['/api/custom-fields', 'custom_fields'],
    ['/api/statistics/dashboard', 'statistics'],
    ['/api/sla/configs', 'sla'],
    ['/api/shifts', 'shift'],
    ['/api/knowledge-docs', 'knowledge'],
    ['/api/assist/suggest', 'assist'],
    ['/api/voice/protocols', 'voice'],
    ['/api/audit/logs', 'audit'],
    ['/api/security/users/1', 'security'],
    ['/api/security/config/tenant', 'security'],
    ['/api/ticketsx', undefined],
    ['/api/constructor', undefined],
    ['/public/kb', undefined],
  ]
  for (const [path, res] of cases) t.equal(resourceForPath(path), res, path)
  t.equal(requiredPermission('GET', '/api/tickets'), 'tickets.read')
  t.equal(requiredPermission('head', '/api/tickets'), 'tickets.read')
  t.equal(requiredPermission('POST', '/api/security/users/query'), 'security.read', 'the batch preview only reads')
  t.equal(requiredPermission('POST', '/api/assist/suggest'), 'assist.read', 'suggestions only read')
  t.equal(requiredPermission('PUT', '/api/agents/me/status'), 'agents.read', "an agent's own presence")
  t.equal(requiredPermission('PUT', '/api/agents/a1/status'), 'agents.write', "another agent's presence")
  t.equal(requiredPermission('POST', '/api/security/users/revoke-tokens'), 'security.write')
  t.equal(requiredPermission('POST', '/api/tickets'), 'tickets.write')
  t.equal(requiredPermission('GET', '/api/tickets/0193abc/satisfaction'), 'satisfaction.read', "a ticket's rating")
  t.equal(requiredPermission('DELETE', '/api/macros/1'), 'macros.write')
  t.equal(requiredPermission('GET', '/api/apps/integrations'), 'integrations.read')
  t.equal(requiredPermission('PATCH', '/api/apps/integrations/1'), 'integrations.write')
  t.equal(requiredPermission('GET', '/api/unknown'), '*')
})

t.test('route classes', async (t) => {
  const cases: [string, string][] = [
    ['/health', 'anonymous'],
    ['/ready', 'anonymous'],
    ['/metrics', 'anonymous'],
    ['/public/kb/a', 'anonymous'],
    ['/public/csat/tok', 'anonymous'],
    ['/api/v1/auth/login', 'anonymous'],
    ['/api/v1/auth/register', 'anonymous'],
    ['/api/v1/auth/refresh', 'anonymous'],
    ['/api/v1/auth/logout', 'anonymous'],
    ['/api/v1/auth/sessions', 'authenticated'],
    ['/api/v1/auth/me', 'authenticated'],
    ['/api/v1/auth/login/x', 'authenticated'],
    ['/api/v1/ai/query', 'staff'],
    ['/api/v1/ws/stats', 'staff'],
    ['/api/v1/webrtc/stats', 'staff'],
    ['/api/v1/ws', 'optional'],
    ['/api/v1/metrics/ingest', 'service'],
    ['/api/v1/other', 'staff'],
    ['/api/tickets', 'management'],
    ['/api', 'management'],
  ]
  for (const [path, cls] of cases) t.equal(routeClass(path), cls, path)
  t.notOk(kindAllowed('management', 'end_user'))
  t.ok(kindAllowed('authenticated', 'end_user'))
  t.notOk(kindAllowed('staff', 'end_user'))
  t.notOk(kindAllowed('service', 'admin'))
  t.ok(kindAllowed('service', 'service'))
})

t.test(
  "applying a macro needs only macros.read at the gateway (the ticket write is the service's check)",
  async (t) => {
    t.equal(requiredPermission('POST', '/api/macros/0193abc/apply'), 'macros.read')
    t.equal(requiredPermission('POST', '/api/macros/0193abc/apply?x=1'), 'macros.read')
    t.equal(requiredPermission('POST', '/api/macros'), 'macros.write', 'creating one is still a write')
    t.equal(requiredPermission('PUT', '/api/macros/0193abc'), 'macros.write')
    t.ok(hasPermission(expandPermissions(['agent']), requiredPermission('POST', '/api/macros/m/apply')), 'agents may')
  },
)
