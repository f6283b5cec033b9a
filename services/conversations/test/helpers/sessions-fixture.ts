import type { StorageMode } from '@switchboard/testing'
import type { Test } from 'tap'
import { as, conversationsApp, principal, servicePrincipal } from './app.ts'
import { seedAgent, seedCustomer } from './omni.ts'

// The sessions API's callers and seeded agents, shared by sessions.routes.test.ts and messages.routes.test.ts.
const agent = principal()
const agent2 = principal({ user_id: 'agent-2' })
const supervisor = principal({
  user_id: 'sup-1',
  roles: ['supervisor'],
  permissions: ['workspace.read', 'workspace.write', 'workspace.supervise'],
})
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const otherWorkspace = principal({ user_id: 'agent-8', workspace_id: 'sales' })
const admin = principal({
  user_id: 'admin-1',
  kind: 'admin',
  roles: ['admin'],
  permissions: ['*'],
  tenant_id: '',
  workspace_id: '',
})
const hub = servicePrincipal()

/** A conversations app with four seeded agents, the callers' headers, request helpers and a session maker. */
export async function sessionsFixture(t: Test, mode: StorageMode, opts: Parameters<typeof conversationsApp>[2] = {}) {
  const { app, svc } = await conversationsApp(t, mode, opts)
  const h = {
    agent: await as(agent),
    agent2: await as(agent2),
    supervisor: await as(supervisor),
    other: await as(otherTenant),
    otherWs: await as(otherWorkspace),
    admin: await as(admin),
    hub: await as(hub),
    // a customer's principal, even one granted the workspace permissions, is not staff
    customer: await as(principal({ user_id: 'cust-list', kind: 'end_user', roles: ['customer'] })),
  }
  await seedAgent(svc, { user_id: 'agent-1', name: 'Ada' })
  await seedAgent(svc, { user_id: 'agent-2', name: 'Bob' })
  await seedAgent(svc, { user_id: 'agent-off', status: 'offline' })
  await seedAgent(svc, { user_id: 'agent-full', max_concurrent: 1 })
  await seedCustomer(svc, { user_id: 'cust-out' })

  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })
  const get = (url: string, headers = h.agent) => app.inject({ method: 'GET', url, headers })
  let n = 0
  /** a customer's first message through the hub: the session */
  const customerSession = async (body: Record<string, unknown> = {}) => {
    const id = `s-${mode}-${++n}`
    const res = await post(
      `/internal/sessions/${id}/messages`,
      { sender: 'customer', customer_id: 'cust-1', content: 'Hello, I need help', ...body },
      h.hub,
    )
    t.equal(res.statusCode, 201, 'session created by the hub')
    return res.json().session
  }
  return { app, svc, h, post, get, customerSession }
}
