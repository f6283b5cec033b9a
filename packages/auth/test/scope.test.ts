import t from 'tap'
import { resolveScope, type ScopeInput } from '../src/scope.ts'

type Row = [string, ScopeInput, string]
const scoped = { tokenTenant: 'acme', tokenWorkspace: 'support' }

// Expected: "tenant/workspace" on success, else "<status> <code>".
const rows: Row[] = [
  ['agent, no selectors', { kind: 'agent', ...scoped }, 'acme/support'],
  ['agent, matching header', { kind: 'agent', ...scoped, headerTenant: 'acme' }, 'acme/support'],
  ['agent, matching query', { kind: 'agent', ...scoped, queryWorkspace: 'support' }, 'acme/support'],
  ['agent, conflicting header', { kind: 'agent', ...scoped, headerTenant: 'other' }, '403 SCOPE_CONFLICT'],
  ['agent, conflicting ws query', { kind: 'agent', ...scoped, queryWorkspace: 'x' }, '403 SCOPE_CONFLICT'],
  [
    'header vs query',
    { kind: 'agent', ...scoped, headerTenant: 'acme', queryTenant: 'b' },
    '400 SCOPE_SELECTOR_CONFLICT',
  ],
  ['ws header vs query', { kind: 'admin', headerWorkspace: 'a', queryWorkspace: 'b' }, '400 SCOPE_SELECTOR_CONFLICT'],
  ['agent unscoped widens', { kind: 'agent', headerTenant: 'acme' }, '403 SCOPE_WIDENING'],
  ['end_user widens ws', { kind: 'end_user', tokenTenant: 'acme', queryWorkspace: 'w' }, '403 SCOPE_WIDENING'],
  ['end_user unscoped, none', { kind: 'end_user' }, '/'],
  ['admin unscoped narrows', { kind: 'admin', headerTenant: 'acme', headerWorkspace: 'w' }, 'acme/w'],
  ['service narrows by query', { kind: 'service', queryTenant: 'acme' }, 'acme/'],
  ['admin unscoped, none', { kind: 'admin' }, '/'],
  ['admin scoped conflict', { kind: 'admin', ...scoped, headerTenant: 'b' }, '403 SCOPE_CONFLICT'],
  ['admin tenant-scoped adds ws', { kind: 'admin', tokenTenant: 'acme', headerWorkspace: 'w' }, 'acme/w'],
  ['admin ws without tenant', { kind: 'admin', headerWorkspace: 'w' }, '400 SCOPE_WORKSPACE_WITHOUT_TENANT'],
  ['invalid selector', { kind: 'admin', headerTenant: 'a b' }, '400 SCOPE_SELECTOR_INVALID'],
  ['injection selector', { kind: 'admin', queryTenant: "x' OR 1=1" }, '400 SCOPE_SELECTOR_INVALID'],
  ['empty selectors ignored', { kind: 'agent', ...scoped, headerTenant: '', queryTenant: '' }, 'acme/support'],
]

for (const [name, input, expected] of rows) {
  t.test(name, async (t) => {
    const r = resolveScope(input)
    t.equal(r.ok ? `${r.tenant_id}/${r.workspace_id}` : `${r.status} ${r.code}`, expected)
  })
}

t.test('an agent token without a scope is refused, an admin one is not', async (t) => {
  const agent = resolveScope({ kind: 'agent', tokenTenant: '', tokenWorkspace: '' })
  t.match(agent, { ok: false, status: 403, code: 'SCOPE_REQUIRED' })
  const half = resolveScope({ kind: 'agent', tokenTenant: 'acme', tokenWorkspace: '' })
  t.match(half, { ok: false, status: 403, code: 'SCOPE_REQUIRED' })
  t.match(resolveScope({ kind: 'admin', tokenTenant: '', tokenWorkspace: '' }), { ok: true, tenant_id: '' })
  t.match(resolveScope({ kind: 'agent', tokenTenant: 'acme', tokenWorkspace: 'support' }), { ok: true })
})
