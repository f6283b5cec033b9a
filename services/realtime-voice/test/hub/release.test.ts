// conversations.session.released (POST /api/agents/:id/release-session: the agent lets go, the session stays active
// with no agent) reaches the session's sockets and the released agent's consoles as the hub tells of the other
// agent changes (a transfer_notification), and those consoles stop following the session, as on a transfer.
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { admin, agent, hubFixture } from '../helpers/hub.ts'
import { open } from '../helpers/socket.ts'

const WIDGET = { tenant_id: 'acme', workspace_id: 'support' }

inEachStorageMode(t, 'a released session on the hub', async (t, mode) => {
  const fx = await hubFixture(t, mode)
  await fx.seedAgent('agent-1')
  const registry = fx.hub.svc.hub.context.registry
  const console1 = await open(t, fx.hub.url, { principal: agent('agent-1') })
  const visitor = await open(t, fx.hub.url, { query: WIDGET })
  visitor.send({ type: 'text-message', data: 'Where is my parcel?' })
  const sessionId: string = (await visitor.take((f) => f.type === 'session', 'the session frame')).data.session_id
  const assigned = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/assign`, {
    agent_id: 'agent-1',
  })
  t.equal(assigned.status, 200)
  await console1.take((f) => f.type === 'transfer_notification', 'the assignment at the console')
  await visitor.take((f) => f.type === 'transfer_notification', 'the assignment at the visitor')
  const followed = () => [...registry.consolesOf('agent-1', WIDGET)].some((c) => c.tracks.has(sessionId))
  t.ok(followed(), "the agent's console follows the session it was assigned")

  const released = await fx.call(admin(), 'POST', '/api/agents/ag-agent-1-acme-support/release-session', {
    session_id: sessionId,
  })
  t.equal(released.status, 200)
  const expected = {
    session_id: sessionId,
    data: { event: 'released', agent_id: null, previous_agent_id: 'agent-1', status: 'active', message: String },
  }
  const isRelease = (f: { type: string; data: any }) =>
    f.type === 'transfer_notification' && f.data.event === 'released'
  t.match(await visitor.take(isRelease, 'the release at the visitor'), expected)
  t.match(await console1.take(isRelease, 'the release at the released agent'), expected)
  t.notOk(followed(), 'the released agent no longer follows the session')

  // the visitor's side knows no agent has it now
  visitor.send({ type: 'webrtc-offer', session_id: sessionId, data: { sdp: 'v=0' } })
  t.match((await visitor.take((f) => f.type === 'error', 'the refusal')).data, { code: 'REALTIME_NO_AGENT' })
})
