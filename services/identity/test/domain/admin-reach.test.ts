import t from 'tap'
import { callerReach, grantRefusal, losesAdmin, mayGrantAdmin, PLATFORM } from '../../src/domain/admin-reach.ts'

const user = (role: string, admin_tenant_id = '') => ({ role, admin_tenant_id })

t.test("a caller's reach is its token's tenant", async (t) => {
  t.equal(callerReach({ token_tenant_id: '' }), PLATFORM)
  t.equal(callerReach({ token_tenant_id: 'acme' }), 'acme')
  t.equal(callerReach(undefined), PLATFORM, 'background work')
})

t.test('a platform caller may change anyone', async (t) => {
  t.equal(grantRefusal(PLATFORM, user('admin'), user('customer'), ['acme', 'globex']), undefined)
  t.equal(grantRefusal(PLATFORM, user('agent'), user('admin'), ['acme', 'globex']), undefined)
})

t.test('a tenant administrator works within its tenant', async (t) => {
  t.equal(grantRefusal('acme', user('agent'), user('admin', 'acme'), ['acme']), undefined, 'admin of its tenant')
  t.equal(grantRefusal('acme', user('agent'), user('supervisor'), ['acme']), undefined)
  t.equal(grantRefusal('acme', user('admin', 'acme'), user('agent'), ['acme']), undefined, 'its peers')
  t.match(grantRefusal('acme', user('agent'), user('admin', ''), ['acme']), /own tenant/, 'no platform admin')
  t.match(grantRefusal('acme', user('agent'), user('admin', 'globex'), ['acme']), /own tenant/)
  t.match(grantRefusal('acme', user('admin', ''), user('agent'), ['acme']), /wider reach/, 'not a platform admin')
  t.match(grantRefusal('acme', user('admin', ''), undefined, ['acme']), /wider reach/, 'nor its status')
  t.match(grantRefusal('acme', user('agent'), user('supervisor'), ['acme', 'globex']), /another tenant/)
  t.equal(grantRefusal('acme', user('customer'), undefined, ['acme', 'globex']), undefined, 'status of a non-admin')
})

t.test('what loses an admin grant', async (t) => {
  t.ok(losesAdmin(user('admin'), user('agent')))
  t.ok(losesAdmin(user('admin'), undefined), 'deactivation')
  t.ok(losesAdmin(user('admin', ''), user('admin', 'acme')), 'platform to tenant')
  t.notOk(losesAdmin(user('admin', 'acme'), user('admin', 'acme')))
  t.notOk(losesAdmin(user('agent'), user('customer')))
})

t.test('who grants admin at all', async (t) => {
  t.ok(mayGrantAdmin('admin'))
  t.ok(mayGrantAdmin('service'))
  t.notOk(mayGrantAdmin('agent'), 'not staff with security.write from a custom table')
  t.notOk(mayGrantAdmin(undefined))
})
