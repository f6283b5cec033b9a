import t from 'tap'
import { DEFAULT_PERMISSION_TABLE, expandPermissions, hasPermission, SUPERVISE_PERMISSION } from '../src/permissions.ts'
import { principalKind, STAFF_ROLES } from '../src/principal.ts'

t.test('a supervisor is staff of kind agent', async (t) => {
  t.equal(principalKind({ roles: ['supervisor'] }), 'agent')
  t.equal(principalKind({ roles: ['supervisor', 'admin'] }), 'admin', 'admin still wins')
  t.equal(principalKind({ roles: ['supervisor'], principal_kind: 'end_user' }), 'end_user', 'explicit claim wins')
  t.same([...STAFF_ROLES].sort(), ['admin', 'agent', 'supervisor'])
})

t.test("a supervisor holds the agent's permissions plus supervise, statistics.read and shift.*", async (t) => {
  const agent = expandPermissions(['agent'])
  const supervisor = expandPermissions(['supervisor'])
  for (const p of agent) t.ok(supervisor.includes(p), `keeps ${p}`)
  t.equal(SUPERVISE_PERMISSION, 'workspace.supervise')
  for (const p of [SUPERVISE_PERMISSION, 'statistics.read', 'shift.read', 'shift.write']) {
    t.ok(hasPermission(supervisor, p), p)
  }
  for (const p of ['customers.write', 'security.read', 'audit.read', 'statistics.write', '*']) {
    t.notOk(hasPermission(supervisor, p), `not ${p}`)
  }
  t.notOk(hasPermission(agent, SUPERVISE_PERMISSION), 'an agent does not supervise')
  t.ok(hasPermission(expandPermissions(['admin']), SUPERVISE_PERMISSION), 'an admin does')
  t.ok(DEFAULT_PERMISSION_TABLE.supervisor, 'in the one table')
})
