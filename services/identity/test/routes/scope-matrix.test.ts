import { buildKeyring, issueToken } from '@switchboard/auth'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, claimsOf, identityApp, JWT_SECRET } from '../helpers/app.ts'
import { callers, createMember, errorShape, login, who } from '../helpers/directory.ts'

type Call = readonly [method: 'GET' | 'POST' | 'PUT', url: string, payload?: object]

/** Every identity endpoint that takes an id, aimed at `ids` (a real record or a missing one). */
function endpoints(ids: { user: string; session: string; agent: string; customer: string; token: string }): Call[] {
  return [
    ['GET', `/api/security/users/${ids.user}`],
    ['POST', '/api/security/users/query', { user_ids: [ids.user] }],
    ['GET', `/api/security/users/${ids.user}/sessions`],
    ['POST', `/api/security/users/${ids.user}/sessions/revoke`, { session_id: ids.session }],
    ['POST', `/api/security/users/${ids.user}/sessions/revoke-all`, {}],
    ['POST', `/api/security/users/${ids.user}/revoke-tokens`, {}],
    ['POST', '/api/security/users/revoke-tokens', { user_ids: [ids.user] }],
    ['POST', '/api/security/tokens/revoke', { token: ids.token }],
    ['GET', `/api/agents/${ids.agent}`],
    ['PUT', `/api/agents/${ids.agent}`, { name: 'x' }],
    ['POST', `/api/agents/${ids.agent}/online`],
    ['POST', `/api/agents/${ids.agent}/offline`],
    ['PUT', `/api/agents/${ids.agent}/status`, { status: 'busy' }],
    ['POST', `/api/agents/${ids.agent}/revoke-tokens`],
    ['GET', `/api/customers/${ids.customer}`],
    ['PUT', `/api/customers/${ids.customer}`, { name: 'x' }],
    ['GET', `/api/customers/${ids.customer}/notes`],
    ['POST', `/api/customers/${ids.customer}/notes`, { content: 'x' }],
    ['PUT', `/api/customers/${ids.customer}/tags`, { tags: ['x'] }],
    ['POST', `/api/customers/${ids.customer}/revoke-tokens`],
  ]
}

inEachStorageMode(t, 'cross-tenant 404 matrix', async (t, mode) => {
  const { app } = await identityApp(t, mode)
  const c = await callers()
  const acmeSales = await as(who({ kind: 'admin', tenant_id: 'acme', workspace_id: 'sales' }))
  const acmeTenantWide = await as(
    who({ kind: 'admin', tenant_id: 'acme', workspace_id: '', token_tenant_id: 'acme', token_workspace_id: '' }),
  )
  const send = (call: Call, headers: Record<string, string>) =>
    app.inject({ method: call[0], url: call[1], headers, ...(call[2] ? { payload: call[2] } : {}) })

  // acme/support owns a customer who is also an agent, with a live session
  const cust = await createMember(app, c.acmeAdmin, 'Ivy', 'acme.test')
  const agent = (await send(['POST', '/api/agents', { user_id: cust.user_id }], c.acmeAdmin)).json()
  const session = await login(app, 'ivy', 'laptop')
  const sessionId = claimsOf(session.token).session_id
  const real = { user: cust.user_id, session: sessionId, agent: agent.id, customer: cust.id, token: session.token }
  const ghostToken = await issueToken(
    buildKeyring(JWT_SECRET),
    {
      user_id: 'ghost-user',
      token_version: 1,
      session_id: 'ghost-session',
      session_token_version: 1,
      roles: [],
      tenant_id: '',
      workspace_id: '',
    },
    { ttlSeconds: 900, tokenUse: 'access' },
  )
  const ghost = {
    user: 'ghost-user',
    session: 'ghost-session',
    agent: 'ghost-agent',
    customer: 'ghost-customer',
    token: ghostToken.token,
  }
  const before = (await send(['GET', `/api/security/users/${cust.user_id}`], c.platform)).json()

  const realCalls = endpoints(real)
  const ghostCalls = endpoints(ghost)
  for (const [label, headers] of [
    ['another tenant', c.globexAdmin],
    ['another workspace of the same tenant', acmeSales],
  ] as const) {
    await t.test(label, async (t) => {
      for (let i = 0; i < realCalls.length; i++) {
        const call = realCalls[i] as Call
        const foreign = await send(call, headers)
        const missing = await send(ghostCalls[i] as Call, headers)
        t.equal(foreign.statusCode, 404, `${call[0]} ${call[1]}`)
        t.same(errorShape(foreign), errorShape(missing), `${call[0]} ${call[1]}: same body as a missing id`)
        t.ok(foreign.json().request_id, 'request id present')
      }
    })
  }

  await t.test('nothing changed by the refused calls', async (t) => {
    const after = (await send(['GET', `/api/security/users/${cust.user_id}`], c.platform)).json()
    t.same(after, before, 'token_version and state untouched')
    const a = (await send(['GET', `/api/agents/${agent.id}`], c.acmeAdmin)).json()
    t.same([a.status, a.name], ['offline', agent.name])
    const cu = (await send(['GET', `/api/customers/${cust.id}`], c.acmeAdmin)).json()
    t.same([cu.name, cu.tags], ['Ivy', []])
    t.equal((await send(['GET', `/api/customers/${cust.id}/notes`], c.acmeAdmin)).json().count, 0)
    const sessions = (await send(['GET', `/api/security/users/${cust.user_id}/sessions`], c.acmeAdmin)).json()
    t.equal(sessions.items[0].status, 'active')
    const denied = (await send(['GET', '/api/security/tokens/revoked'], c.platform)).json()
    t.equal(denied.total, 0)
  })

  await t.test('the owning scope, a tenant-wide admin and the platform reach the records', async (t) => {
    for (const headers of [c.acmeAdmin, acmeTenantWide, c.platform]) {
      t.equal((await send(['GET', `/api/security/users/${cust.user_id}`], headers)).statusCode, 200)
      t.equal((await send(['GET', `/api/agents/${agent.id}`], headers)).statusCode, 200)
      t.equal((await send(['GET', `/api/customers/${cust.id}`], headers)).statusCode, 200)
    }
    t.equal((await send(['GET', `/api/customers/${cust.id}`], c.acmeAgent)).statusCode, 200, 'a scoped agent reads')
    t.equal((await send(['GET', '/api/customers'], acmeSales)).json().total, 0, 'lists are scoped too')
    t.equal((await send(['GET', '/api/agents'], c.globexAdmin)).json().total, 0)
  })
})
