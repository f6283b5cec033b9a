// identity's agent events reach the consoles of their scope as `presence` frames (a supervisor's screen follows
// agents going online, busy or away live): only consoles whose principal may read agents, only in the event's
// tenant/workspace, never a customer's socket, and only status and capacity — no skills, rating or response time.
import { IdentityEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { admin, agent, customer, hubFixture } from '../helpers/hub.ts'
import { type Frame, open } from '../helpers/socket.ts'

const SUPPORT = { tenant_id: 'acme', workspace_id: 'support' }
const SUPERVISOR = ['workspace.read', 'workspace.supervise', 'agents.read']

const facts = {
  agent_id: 'ag-2',
  user_id: 'agent-2',
  name: 'Bea',
  department: 'Support',
  skills: ['billing'],
  max_concurrent: 6,
  status: 'online',
  rating: 4.5,
  avg_response_time: 31,
}

inEachStorageMode(t, "identity's agent events on consoles", async (t, mode) => {
  const fx = await hubFixture(t, mode)
  const bus = fx.hub.svc.bus
  const publish = (type: string, data: unknown, scope = SUPPORT) =>
    bus.publish(type, newEnvelope({ type, ...scope, actor: { user_id: 'agent-2', kind: 'agent' }, data }))

  const supervisor = await open(t, fx.hub.url, { principal: agent('sup-1', { permissions: SUPERVISOR }) })
  const unscopedAdmin = await open(t, fx.hub.url, { principal: admin({ tenant_id: '', workspace_id: '' }) })
  const otherWorkspace = await open(t, fx.hub.url, {
    principal: agent('sup-3', { workspace_id: 'sales', permissions: SUPERVISOR }),
  })
  const noAgentsRead = await open(t, fx.hub.url, { principal: agent('agent-4') }) // workspace.* only
  const customerSock = await open(t, fx.hub.url, { principal: customer('cust-1') })
  const isPresence = (f: Frame) => f.type === 'presence'

  await publish(IdentityEvents.agentUpserted.type, facts)
  const upserted = {
    type: 'presence',
    session_id: null,
    data: { event: 'upserted', agent_id: 'ag-2', user_id: 'agent-2', name: 'Bea', status: 'online', max_concurrent: 6 },
  }
  t.match(await supervisor.take(isPresence, 'the agent at a supervisor of its workspace'), upserted)
  t.match(await unscopedAdmin.take(isPresence, 'the agent at an unscoped admin'), upserted)

  // an agent of another workspace of the tenant: its supervisor's, not this one's
  await publish(
    IdentityEvents.agentStatusChanged.type,
    { agent_id: 'ag-9', user_id: 'agent-9', status: 'online', previous: 'offline' },
    { ...SUPPORT, workspace_id: 'sales' },
  )
  await publish(IdentityEvents.agentStatusChanged.type, {
    agent_id: 'ag-2',
    user_id: 'agent-2',
    status: 'away',
    previous: 'online',
  })
  t.same((await supervisor.take(isPresence, 'the status change')).data, {
    event: 'status_changed',
    agent_id: 'ag-2',
    user_id: 'agent-2',
    status: 'away',
    previous: 'online',
  })
  // off its contract: not delivered (and the hub goes on)
  await publish(IdentityEvents.agentStatusChanged.type, { agent_id: 'ag-2' })
  await publish(IdentityEvents.agentStatusChanged.type, {
    agent_id: 'ag-2',
    user_id: 'agent-2',
    status: 'busy',
    previous: 'away',
  })
  t.match((await supervisor.take(isPresence, 'the next change')).data, { status: 'busy' })

  for (const s of [supervisor, otherWorkspace, noAgentsRead, customerSock, unscopedAdmin]) await s.sync()
  t.same(
    supervisor.frames.filter(isPresence).map((f) => [f.data.event, f.data.status]),
    [
      ['upserted', 'online'],
      ['status_changed', 'away'],
      ['status_changed', 'busy'],
    ],
    "the supervisor got each of its workspace's agent events once",
  )
  t.notOk(
    supervisor.frames.some((f) => isPresence(f) && ('skills' in f.data || 'rating' in f.data)),
    'no skills or rating on the wire',
  )
  t.same(
    otherWorkspace.frames.filter(isPresence).map((f) => f.data.agent_id),
    ['ag-9'],
    "another workspace's supervisor got only its own workspace's agent",
  )
  t.equal(noAgentsRead.frames.filter(isPresence).length, 0, 'a console without agents.read gets no presence frame')
  t.equal(customerSock.frames.filter(isPresence).length, 0, "a customer's socket gets no presence frame")
})
