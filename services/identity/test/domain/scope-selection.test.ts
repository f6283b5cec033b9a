import t from 'tap'
import type { Binding } from '../../src/db/bindings.repository.ts'
import { chooseBinding, readSelectors } from '../../src/domain/scope-selection.ts'

const b = (kind: Binding['kind'], tenant_id: string, workspace_id: string): Binding => ({
  kind,
  id: `${kind}-${tenant_id}-${workspace_id}`,
  tenant_id,
  workspace_id,
})
const none = { tenant_id: '', workspace_id: '' }

t.test('selectors from body and headers', async (t) => {
  t.same(readSelectors({ tenant_id: 'a', workspace_id: 'w' }, {}), {
    ok: true,
    value: { tenant_id: 'a', workspace_id: 'w' },
  })
  t.same(readSelectors({}, { 'x-tenant-id': 'a', 'x-workspace-id': 'w' }), {
    ok: true,
    value: { tenant_id: 'a', workspace_id: 'w' },
  })
  t.same(readSelectors({ tenant_id: 'a' }, { 'x-tenant-id': 'a' }), {
    ok: true,
    value: { tenant_id: 'a', workspace_id: '' },
  })
  t.match(readSelectors({ tenant_id: 'a' }, { 'x-tenant-id': 'b' }), { ok: false, message: /disagree/ })
  t.match(readSelectors({ workspace_id: 'w' }, {}), { ok: false, message: /tenant_id/ })
})

t.test('binding choice at login', async (t) => {
  t.same(chooseBinding([], none, 'customer'), { ok: true, binding: undefined, scope: none })
  const one = [b('agent', 'acme', 'support')]
  t.match(chooseBinding(one, none, 'agent'), { ok: true, scope: { tenant_id: 'acme', workspace_id: 'support' } })
  const two = [b('agent', 'acme', 'support'), b('agent', 'acme', 'sales')]
  t.same(chooseBinding(two, none, 'agent'), { ok: false, reason: 'several' })
  t.match(chooseBinding(two, { tenant_id: 'acme', workspace_id: 'sales' }, 'agent'), {
    ok: true,
    binding: { workspace_id: 'sales' },
  })
  t.same(chooseBinding(two, { tenant_id: 'acme', workspace_id: '' }, 'agent'), { ok: false, reason: 'several' })
  t.same(chooseBinding(two, { tenant_id: 'other', workspace_id: 'x' }, 'agent'), { ok: false, reason: 'not_bound' })
  t.match(chooseBinding(two, none, 'admin'), { ok: true, binding: undefined, scope: none }, 'admin: unscoped')
  t.match(chooseBinding(two, { tenant_id: 'other', workspace_id: 'x' }, 'admin'), {
    ok: true,
    scope: { tenant_id: 'other', workspace_id: 'x' },
  })
  const both = [b('customer', 'acme', 'support'), b('agent', 'acme', 'support')]
  t.match(chooseBinding(both, none, 'agent'), { ok: true, binding: { kind: 'agent' } }, 'agent record preferred')
})

t.test('a tenant administrator chooses within its tenant only', async (t) => {
  const acme = [b('agent', 'acme', 'support')]
  t.match(chooseBinding(acme, none, 'admin', 'acme'), {
    ok: true,
    scope: { tenant_id: 'acme', workspace_id: 'support' },
  })
  t.match(chooseBinding(acme, { tenant_id: 'acme', workspace_id: 'sales' }, 'admin', 'acme'), {
    ok: true,
    binding: undefined,
    scope: { tenant_id: 'acme', workspace_id: 'sales' },
  })
  t.same(chooseBinding(acme, { tenant_id: 'other', workspace_id: 'x' }, 'admin', 'acme'), {
    ok: false,
    reason: 'not_bound',
  })
  t.match(chooseBinding([], none, 'admin', 'acme'), { ok: true, scope: { tenant_id: 'acme', workspace_id: '' } })
  const two = [b('agent', 'acme', 'support'), b('agent', 'acme', 'sales')]
  t.match(chooseBinding(two, none, 'admin', 'acme'), { ok: true, scope: { tenant_id: 'acme', workspace_id: '' } })
  const elsewhere = [b('agent', 'acme', 'support'), b('customer', 'globex', 'main')]
  t.match(
    chooseBinding(elsewhere, none, 'admin', 'acme'),
    { ok: true, scope: { tenant_id: 'acme', workspace_id: 'support' } },
    'records in another tenant are passed over',
  )
  t.same(chooseBinding(elsewhere, { tenant_id: 'globex', workspace_id: 'main' }, 'admin', 'acme'), {
    ok: false,
    reason: 'not_bound',
  })
})
