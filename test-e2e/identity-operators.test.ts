// Operators can be administered (issue 14 §5) end to end through the gateway, in both run modes: a second
// administrator created by the first, each acting under its own name (so a change one executes is one the other
// can review), supervisors, role changes refusing the old token at the gateway, and the last administrator rule.
// The tenant registry itself is identity-tenants-registry.test.ts.
import { mintServiceToken } from '@switchboard/cli'
import { login } from './harness/auth.ts'
import { until } from './harness/http.ts'
import { identityActors } from './harness/identity-actors.ts'
import { decodeJwt, isError, refusedWithin } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

inEachMode('identity operators', {}, async (t, system) => {
  const { api, suffix, admin, adminId, as, demoCustomer } = await identityActors(system)
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const asService = (headers: Record<string, string> = {}) => ({ token: service, headers })
  const pw = (name: string) => `Pw-${name}-${suffix}-0123456789`
  const operator = (body: Record<string, unknown>, opts: { token: string; headers?: Record<string, string> }) =>
    api.post('/api/security/users', { email: `${body.username}@e2e.example.com`, ...body }, opts)
  const setRole = (
    id: string,
    body: Record<string, unknown>,
    opts: { token: string; headers?: Record<string, string> },
  ) => api.put(`/api/security/users/${id}/role`, body, opts)
  /** the audit record of `action` on `id`, read as the platform service (every tenant) */
  const audited = (action: string, id: string) =>
    until(`audit ${action} ${id}`, async () => {
      const res = await api.get(`/api/audit/logs?action=${action}&success=true`, asService())
      return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === id)
    })

  const second = { id: '', token: '' }
  // the audit service answers snapshots as JSON text on one engine and as values on the other
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, any>

  t.test('the first administrator creates a second one; each acts under its own name', async (t) => {
    const res = await operator({ username: `admin2_${suffix}`, role: 'admin', password: pw('admin2') }, as)
    t.equal(res.status, 201, res.text)
    t.match(res.body, {
      user: { role: 'admin', admin_tenant_id: system.tenant_id },
      tenant_id: system.tenant_id,
      workspace_id: system.workspace_id,
      set_password: null,
    })
    second.id = res.body.user.id
    second.token = (await login(api, `admin2_${suffix}`, pw('admin2'))).token
    t.match(decodeJwt(second.token).payload, { roles: ['admin'], tenant_id: system.tenant_id })

    // The second admin executes a change; the first reads who did it: two different operators.
    const cust = await demoCustomer('promoted')
    const agent = await api.post('/api/agents', { user_id: cust.user.id }, { token: second.token })
    t.equal(agent.status, 201, agent.text)
    const record = await audited('agents.create', agent.body.id)
    t.equal(record.actor_user_id, second.id, 'executed by the second admin')
    t.not(record.actor_user_id, adminId, 'not by the first: dual control has two people to work with')
    const created = await audited('security.users_create', second.id)
    t.equal(created.actor_user_id, adminId)
    t.notOk(JSON.stringify(created).includes(pw('admin2')), 'the password is not in the audit record')

    isError(
      t,
      await operator({ username: `root2_${suffix}`, role: 'admin', platform_admin: true }, as),
      403,
      'IDENTITY_ROLE_NOT_GRANTABLE',
      'a tenant-bound admin grants no platform admin',
    )
  })

  t.test('supervisors, one-time links, and a role change refusing the old token', async (t) => {
    const res = await operator({ username: `sup_${suffix}`, role: 'agent' }, { token: second.token })
    t.equal(res.status, 201, res.text)
    t.match(res.body.set_password, { token: String, path: '/api/v1/auth/set-password' }, 'no password: a link')
    // the link works once, through the gateway, anonymously
    const link = { token: res.body.set_password.token, password: pw('sup') }
    const set = await api.post('/api/v1/auth/set-password', link)
    t.equal(set.status, 200, set.text)
    t.equal((await login(api, `sup_${suffix}`, pw('sup'))).user.username, `sup_${suffix}`, 'the new password logs in')
    t.equal((await api.post('/api/v1/auth/set-password', link)).status, 400, 'a used link is refused')
    const withPw = await operator({ username: `sup2_${suffix}`, role: 'agent', password: pw('sup2') }, as)
    const id = withPw.body.user.id as string
    const agentSession = await login(api, `sup2_${suffix}`, pw('sup2'))
    const me = () => api.get('/api/v1/auth/me', { token: agentSession.token })
    t.equal((await me()).status, 200)

    const changed = await setRole(id, { role: 'supervisor' }, { token: second.token })
    t.equal(changed.status, 200, changed.text)
    t.ok(changed.body.token_version > (decodeJwt(agentSession.token).payload.token_version as number))
    const { reply, ms } = await refusedWithin(me, 2000)
    t.equal(reply.status, 401, `the old token (old permissions) is refused (${ms} ms)`)
    const record = await audited('security.users_role', id)
    t.equal(json(record.before_json).role, 'agent')
    t.equal(json(record.after_json).role, 'supervisor')

    const sup = await login(api, `sup2_${suffix}`, pw('sup2'))
    const claims = decodeJwt(sup.token).payload as any
    t.match(claims, { roles: ['supervisor'], tenant_id: system.tenant_id })
    t.ok(claims.permissions.includes('workspace.supervise'), 'the supervise permission')
    t.equal((await api.get('/api/customers', { token: sup.token })).status, 200, 'staff of kind agent')
    isError(
      t,
      await api.post('/api/customers', { name: 'x', email: `x_${suffix}@e2e.example.com` }, { token: sup.token }),
      403,
      'PERMISSION_DENIED',
      'with no more than its permissions',
    )
  })

  t.test('the last administrator cannot be demoted or deactivated', async (t) => {
    // The seeded admin is the platform's only platform-wide administrator.
    isError(t, await setRole(adminId, { role: 'agent' }, asService()), 409, 'IDENTITY_LAST_ADMIN', 'demoted')
    isError(
      t,
      await api.put(`/api/security/users/${adminId}/status`, { status: 'inactive' }, asService()),
      409,
      'IDENTITY_LAST_ADMIN',
      'deactivated',
    )
    isError(
      t,
      await setRole(adminId, { role: 'agent' }, { token: second.token }),
      403,
      'IDENTITY_ROLE_NOT_GRANTABLE',
      'and a tenant admin may not touch it',
    )

    // A tenant of its own with one administrator: that one stays until there is another.
    const ops = `ops${suffix}`
    t.equal(
      (await api.post('/api/security/tenants', { id: ops, workspaces: [{ id: 'desk' }] }, asService())).status,
      201,
    )
    const inOps = asService({ 'x-tenant-id': ops, 'x-workspace-id': 'desk' })
    const z1 = await operator({ username: `z1_${suffix}`, role: 'admin', password: pw('z1') }, inOps)
    t.equal(z1.body.user.admin_tenant_id, ops)
    isError(
      t,
      await setRole(z1.body.user.id, { role: 'agent' }, inOps),
      409,
      'IDENTITY_LAST_ADMIN',
      `the last admin of ${ops}`,
    )
    const z2 = await operator({ username: `z2_${suffix}`, role: 'admin', password: pw('z2') }, inOps)
    const z2Token = (await login(api, `z2_${suffix}`, pw('z2'))).token
    const demoted = await setRole(z1.body.user.id, { role: 'agent' }, { token: z2Token })
    t.equal(demoted.status, 200, 'with a second one, the first can go')
    isError(
      t,
      await setRole(z2.body.user.id, { role: 'agent' }, { token: z2Token }),
      409,
      'IDENTITY_LAST_ADMIN',
      'and the second is now the last',
    )
    // A tenant administrator of ops reaches nobody in demo.
    const demoUser = await setRole(second.id, { role: 'agent' }, { token: z2Token })
    isError(t, demoUser, 404, 'IDENTITY_USER_NOT_FOUND', "another tenant's user answers like a missing one")

    // Back in demo: the first admin may demote the second (the seeded admin also administers demo).
    const back = await setRole(second.id, { role: 'agent' }, { token: admin.token })
    t.equal(back.status, 200, back.text)
  })
})
