// The two administrators of the governance e2e and the scopes they act in: the seeded admin (workspace-bound, and
// unscoped through its platform login) and a second tenant administrator (workspace-bound and tenant-wide), both with
// a record in a second workspace of demo so that their logins naming no scope are not bound to the demo workspace;
// the second administrator's approval, and a verification that passes every check of a template.
import { mintServiceToken } from '@switchboard/cli'
import type { Test } from 'tap'
import { login } from './auth.ts'
import { identityActors } from './identity-actors.ts'
import { decodeJwt } from './identity-kit.ts'
import type { System } from './system.ts'

export async function governanceActors(t: Test, system: System) {
  const { api, suffix, demo, admin, auditRecord } = await identityActors(system)
  const first = { token: admin.token, headers: demo }
  const pw = `Pw-gov2-${suffix}-0123456789`
  const created = await api.post(
    '/api/security/users',
    { username: `gov2_${suffix}`, email: `gov2_${suffix}@e2e.example.com`, role: 'admin', password: pw },
    first,
  )
  t.equal(created.status, 201, created.text)
  // The second administrator (a tenant administrator of demo) signed in to the demo workspace: bound to it.
  const wsLogin = await api.post('/api/v1/auth/login', {
    username: `gov2_${suffix}`,
    password: pw,
    tenant_id: system.tenant_id,
    workspace_id: system.workspace_id,
  })
  t.equal(wsLogin.status, 200, wsLogin.text)
  t.match(decodeJwt(wsLogin.body.token).payload, { tenant_id: system.tenant_id, workspace_id: system.workspace_id })
  const second = { token: wsLogin.body.token as string, headers: demo }
  // The seeded admin's login is bound to the demo workspace too (its one record there). The tenant document needs
  // tokens bound to no workspace: with a record in a second workspace of demo (made by a platform service principal),
  // the seeded platform admin's login naming no scope is unscoped, the tenant administrator's tenant-wide.
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const elsewhere = { token: service, headers: { ...demo, 'x-workspace-id': `gov-${suffix}` } }
  t.match(decodeJwt(admin.token).payload, { tenant_id: system.tenant_id, workspace_id: system.workspace_id })
  for (const user_id of [admin.user.id, created.body.user.id]) {
    const bound = await api.post('/api/agents', { user_id, department: 'governance' }, elsewhere)
    t.equal(bound.status, 201, bound.text)
  }
  const platformLogin = await login(api, system.admin.username, system.admin.password)
  t.match(decodeJwt(platformLogin.token).payload, { tenant_id: '', workspace_id: '' }, 'an unscoped admin token')
  const firstTenant = { token: platformLogin.token, headers: demo }
  const tenantLogin = await login(api, `gov2_${suffix}`, pw)
  t.match(decodeJwt(tenantLogin.token).payload, { tenant_id: system.tenant_id, workspace_id: '' }, 'tenant-wide')
  const secondTenant = { token: tenantLogin.token, headers: demo }
  const ws = '/api/security/config/workspace'
  const tenant = '/api/security/config/tenant'
  /** the second administrator's approval: its tenant-wide login for the tenant document, else the workspace one */
  const approve = (base: string, change_ref: string, approval_ref: string) =>
    api.post(
      `${base}/approve`,
      { notes: `reviewed ${change_ref}`, change_ref, reason: 'review', approval_ref },
      base === tenant ? secondTenant : second,
    )
  const passAll = (template: any) => template.checks.map((c: any) => ({ id: c.id, status: 'passed' }))
  return {
    api,
    suffix,
    demo,
    admin,
    auditRecord,
    first,
    second,
    created,
    service,
    elsewhere,
    firstTenant,
    secondTenant,
    ws,
    tenant,
    approve,
    passAll,
  }
}
