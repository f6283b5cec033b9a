import { verifyInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER } from '@switchboard/contracts'
import t from 'tap'
import { ACME_ADMIN, principalHeader, testPrincipal } from '../src/principal.ts'
import { waitFor } from '../src/wait.ts'

t.test('testPrincipal: the token scope follows the effective scope unless given', async (t) => {
  t.same(testPrincipal(), { ...ACME_ADMIN, token_tenant_id: 'acme', token_workspace_id: 'support' })
  t.match(testPrincipal({ tenant_id: 'globex', workspace_id: 'main' }), {
    token_tenant_id: 'globex',
    token_workspace_id: 'main',
  })
  t.match(testPrincipal({ tenant_id: 'acme', token_tenant_id: '' }), { token_tenant_id: 'acme' })
  const platform = { ...ACME_ADMIN, kind: 'service' as const, tenant_id: '', workspace_id: '' }
  t.match(testPrincipal({ user_id: 'svc' }, platform), { user_id: 'svc', kind: 'service', token_tenant_id: '' })
})

t.test('principalHeader: signed with the secret, verifiable by a service', async (t) => {
  const secret = 'testing-secret-0123456789abcdefghij'
  const p = testPrincipal({ user_id: 'u-7' })
  const headers = await principalHeader(secret, p)
  t.same(Object.keys(headers), [PRINCIPAL_HEADER])
  t.match(await verifyInternalPrincipal(secret, headers[PRINCIPAL_HEADER]!), { user_id: 'u-7', tenant_id: 'acme' })
})

t.test('waitFor: returns the first real value, times out otherwise', async (t) => {
  let n = 0
  t.equal(await waitFor(() => (++n >= 3 ? n : undefined)), 3)
  await t.rejects(
    waitFor(async () => false, 60),
    /timed out/,
  )
})
