import t from 'tap'
import { normaliseClaims } from '../src/claims.ts'
import { TokenError } from '../src/errors.ts'
import { principalKind } from '../src/principal.ts'
import { basePayload } from './fixtures/tokens.ts'

t.test('normalises current shape', async (t) => {
  const c = normaliseClaims(basePayload({ permissions: ['tickets.read'], principal_kind: 'service' }))
  t.equal(c.user_id, 'u1')
  t.same(c.roles, ['agent'])
  t.same(c.permissions, ['tickets.read'])
  t.equal(c.principal_kind, 'service')
  t.equal(c.tenant_id, 'acme')
})

t.test('admin_reach: only the platform value is kept', async (t) => {
  t.equal(normaliseClaims(basePayload({ admin_reach: 'platform' })).admin_reach, 'platform')
  t.notOk('admin_reach' in normaliseClaims(basePayload({})), 'absent stays absent')
  for (const junk of ['tenant', 'PLATFORM', true, ['platform'], '']) {
    t.notOk('admin_reach' in normaliseClaims(basePayload({ admin_reach: junk })), `${JSON.stringify(junk)} is absent`)
  }
})

t.test('legacy shapes', async (t) => {
  const a = normaliseClaims(basePayload({ sub: undefined, user_id: 7, roles: undefined, role: 'agent' }))
  t.same([a.sub, a.user_id, a.roles], ['7', '7', ['agent']])
  const b = normaliseClaims(basePayload({ user_id: undefined, roles: 'admin, agent', token_version: '5' }))
  t.same([b.user_id, b.roles, b.token_version], ['u1', ['admin', 'agent'], 5])
  const c = normaliseClaims(basePayload({ tenant_id: null, workspace_id: undefined, permissions: 'a.read,b.*' }))
  t.same([c.tenant_id, c.workspace_id, c.permissions], ['', '', ['a.read', 'b.*']])
  const d = normaliseClaims(basePayload({ token_version: 'x', session_token_version: 1.5 }))
  t.same([d.token_version, d.session_token_version], [0, 0], 'junk versions read as 0')
  const e = normaliseClaims(basePayload({ iat: '1700000000', exp: '1700000600' }))
  t.same([e.iat, e.exp], [1700000000, 1700000600])
})

t.test('refusals', async (t) => {
  t.throws(() => normaliseClaims(null), TokenError)
  t.throws(() => normaliseClaims([]), TokenError)
  t.throws(() => normaliseClaims(basePayload({ sub: undefined, user_id: undefined })), TokenError)
  t.throws(() => normaliseClaims(basePayload({ sub: 'a', user_id: 'b' })), TokenError, 'sub/user_id disagree')
  t.throws(() => normaliseClaims(basePayload({ principal_kind: 'root' })), TokenError)
  t.throws(() => normaliseClaims(basePayload({ token_use: 'id' })), TokenError)
  t.throws(() => normaliseClaims(basePayload({ exp: undefined })), TokenError)
})

t.test('principal kind', async (t) => {
  t.equal(principalKind({ roles: ['admin'] }), 'admin')
  t.equal(principalKind({ roles: ['agent'] }), 'agent')
  t.equal(principalKind({ roles: ['agent', 'admin'] }), 'admin')
  t.equal(principalKind({ roles: ['customer'] }), 'end_user')
  t.equal(principalKind({ roles: [] }), 'end_user')
  t.equal(principalKind({ roles: ['service'] }), 'end_user', 'service is never inferred from a role')
  t.equal(principalKind({ roles: ['admin'], principal_kind: 'service' }), 'service', 'explicit claim wins')
  t.equal(principalKind({ roles: ['admin'], principal_kind: 'end_user' }), 'end_user')
})
