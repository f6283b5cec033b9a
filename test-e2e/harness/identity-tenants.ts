// The cast of the identity tenancy e2e files, on top of the identity actors (tenant A is the demo scope): a
// platform-level service principal, tenant B with a customer (with a password) and an agent, each logged in, and
// a customer record of A; selector headers for B and for a third tenant C. One per started system.
import { mintServiceToken } from '@switchboard/cli'
import { login, register } from './auth.ts'
import type { Reply } from './http.ts'
import { identityActors } from './identity-actors.ts'
import { decodeJwt } from './identity-kit.ts'
import type { System } from './system.ts'

export async function tenancyActors(system: System) {
  const { api, suffix, demo, admin: adminA, agent: agentA, as: asA } = await identityActors(system)
  const secret = system.env.JWT_SECRET!
  const tenantB = `acme${suffix}`
  const inB = { 'x-tenant-id': tenantB, 'x-workspace-id': 'support' }
  const inC = { 'x-tenant-id': `globex${suffix}`, 'x-workspace-id': 'sales' }

  // A platform-level service principal (what `switchboard token mint --service e2e --permission '*'` prints):
  // unscoped, so it names B's scope with the selector headers.
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const svcB = { token: service, headers: inB }
  const must = (r: Reply, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
    return r.body
  }

  // Tenant C exists (an operator registered it): customers self-register only into known tenants.
  must(
    await api.post(
      '/api/security/tenants',
      { id: `globex${suffix}`, workspaces: [{ id: 'sales' }] },
      { token: service },
    ),
    201,
    'tenant C',
  )

  // Tenant B: a customer with a password, and an agent (registered as B's customer, then promoted in B).
  const custPassword = `Pw-b-${suffix}-0123456789`
  const custB = must(
    await api.post(
      '/api/customers',
      {
        name: `B customer ${suffix}`,
        email: `bcust_${suffix}@e2e.example.com`,
        username: `bcust_${suffix}`,
        password: custPassword,
        tags: ['b'],
      },
      svcB,
    ),
    201,
    'customer in B',
  )
  const custBLogin = await login(api, `bcust_${suffix}`, custPassword)
  const custBSession = decodeJwt(custBLogin.token).payload.session_id as string
  const regB = await register(api, `bagent_${suffix}`, inB)
  const agentB = must(
    await api.post('/api/agents', { user_id: regB.body.user.id, department: 'b-dept' }, svcB),
    201,
    'agent in B',
  )
  const agentBLogin = await login(api, `bagent_${suffix}`, regB.password)
  // Tenant A (demo): a customer record and its user.
  const custA = must(
    await api.post('/api/customers', { name: `A customer ${suffix}`, email: `acust_${suffix}@e2e.example.com` }, asA),
    201,
    'customer in A',
  )

  return {
    api,
    suffix,
    secret,
    demo,
    tenantB,
    inB,
    inC,
    service,
    svcB,
    adminA,
    agentA,
    asA,
    custPassword,
    custB,
    custBLogin,
    custBSession,
    agentB,
    agentBLogin,
    custA,
  }
}
