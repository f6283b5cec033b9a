// WebSocket through the gateway, in both run modes, against the real identity: anonymous and authenticated
// connections, the principal the service receives, and a logout on one gateway replica closing the socket
// held by another. realtime-voice does not exist yet; a small real WebSocket service stands in for it.
import { randomBytes } from 'node:crypto'
import { startWsEcho, wsConnect, wsOpened } from '@switchboard/testing'
import t from 'tap'
import { login, register } from './harness/auth.ts'
import { client } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

/** Same bound as the walking skeleton's revocation: identity's event over NATS to every gateway replica. */
const REVOCATION_BOUND_MS = 500

const internalSecret = randomBytes(32).toString('base64url')
const echo = await startWsEcho({ internalSecret })
t.teardown(() => echo.close())

const env = { UPSTREAM_REALTIME_VOICE: echo.url, INTERNAL_SECRET: internalSecret }

// The gateway's relay, against a stand-in in the hub's place (realtime-voice itself: realtime.test.ts).
inEachMode(
  'websocket through the gateway',
  { env, gatewayReplicas: 2, without: ['realtime-voice'] },
  async (t, system) => {
    const [gatewayA, gatewayB = gatewayA] = system.gatewayUrls as [string, string?]
    const api = client(gatewayA)
    t.comment(`gateway replicas: ${system.gatewayUrls.length}`)

    t.test('a customer widget connects anonymously; staff and customers with their token', async (t) => {
      const widget = wsOpened(await wsConnect(gatewayA, '/api/v1/ws?session_id=conv-1'), t)
      t.equal(widget.hello.principal, null, 'no token: anonymous')
      widget.ws.send(JSON.stringify({ type: 'text-message', data: 'hello' }))
      t.same(JSON.parse(String(await widget.next())), { type: 'text-message', data: 'hello' }, 'relayed both ways')

      const agent = await login(api, system.agent.username, system.agent.password)
      const agentWs = wsOpened(
        await wsConnect(gatewayB, '/api/v1/ws', { protocols: ['switchboard.v1', `bearer.${agent.token}`] }),
        t,
      )
      t.match(
        agentWs.hello.principal,
        { user_id: agent.user.id, kind: 'agent', tenant_id: system.tenant_id, workspace_id: system.workspace_id },
        'the service receives the verified principal with its scope',
      )
      t.equal(agentWs.ws.protocol, 'switchboard.v1')
      t.equal(agentWs.hello.protocols, 'switchboard.v1', 'the token never reaches the service')

      const scope = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
      const customer = await register(api, `ws-cust-${randomBytes(3).toString('hex')}`, scope)
      t.equal(customer.status, 201, customer.text)
      const customerWs = wsOpened(
        await wsConnect(gatewayA, '/api/v1/ws', { headers: { authorization: `Bearer ${customer.body.token}` } }),
        t,
      )
      t.match(customerWs.hello.principal, { user_id: customer.body.user.id, kind: 'end_user' }, 'an end user may')

      const refresh = await wsConnect(gatewayA, '/api/v1/ws', {
        protocols: ['switchboard.v1', `bearer.${agent.refresh_token}`],
      })
      t.match(refresh, { status: 401 }, 'a refresh token is not an access token here either')
      t.match(await wsConnect(gatewayA, '/api/tickets'), { status: 400, body: { code: 'WEBSOCKET_NOT_SERVED' } })
    })

    t.test('logout on one replica closes the socket held by another (4401)', async (t) => {
      const session = await login(
        api,
        system.agent.username,
        system.agent.password,
        `ws-${randomBytes(3).toString('hex')}`,
      )
      const held = wsOpened(
        await wsConnect(gatewayB, '/api/v1/ws', { protocols: ['switchboard.v1', `bearer.${session.token}`] }),
        t,
      )
      const other = await login(api, system.agent.username, system.agent.password)
      const bystander = wsOpened(
        await wsConnect(gatewayB, '/api/v1/ws', { protocols: ['switchboard.v1', `bearer.${other.token}`] }),
        t,
      )

      const started = Date.now()
      const out = await api.post('/api/v1/auth/sessions/logout-current', undefined, { token: session.token })
      t.equal(out.status, 200, out.text)
      const closed = await Promise.race([held.closed, new Promise((r) => setTimeout(() => r('still open'), 5000))])
      const ms = Date.now() - started
      t.match(closed, { code: 4401 }, `closed ${ms} ms after the logout returned`)
      t.ok(ms <= REVOCATION_BOUND_MS, `within ${REVOCATION_BOUND_MS} ms (took ${ms})`)

      bystander.ws.send('ping?')
      t.equal(await bystander.next(), 'ping?', "the same user's other session keeps its socket")
      const again = await wsConnect(gatewayA, '/api/v1/ws', {
        protocols: ['switchboard.v1', `bearer.${session.token}`],
      })
      t.match(again, { status: 401 }, 'and the logged-out token cannot open a new one')
    })
  },
)
