// A console's `read {message_id}` is relayed to the session (as before) and stored as its agent's read marker in
// conversations, which the inbox's unread counts come from.
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { agent, customer, hubFixture } from '../helpers/hub.ts'
import { open } from '../helpers/socket.ts'

inEachStorageMode(t, "a console's read receipt is its read marker", async (t, mode) => {
  const fx = await hubFixture(t, mode)
  await fx.seedAgent('agent-1')
  const cust = await open(t, fx.hub.url, { principal: customer('cust-rm') })
  cust.send({ type: 'text-message', data: 'Hello' })
  const sessionId: string = (await cust.take((f) => f.type === 'session', 'session')).data.session_id
  const first = await cust.take((f) => f.type === 'text-message', 'echo')
  const assigned = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/assign`, {
    agent_id: 'agent-1',
  })
  t.equal(assigned.status, 200)
  const unread = async () => {
    const res = await fx.call(agent('agent-1'), 'GET', '/api/omni/inbox?view=mine')
    return res.body.items.find((i: { id: string }) => i.id === sessionId)
  }
  t.match(await unread(), { unread_count: 1, last_read_seq: 0 })

  const console1 = await open(t, fx.hub.url, { principal: agent('agent-1') })
  console1.send({ type: 'join', data: { session_id: sessionId } })
  await console1.take((f) => f.type === 'session', 'joined')
  console1.send({ type: 'read', session_id: sessionId, data: { message_id: first.data.message_id } })
  const relayed = await cust.take((f) => f.type === 'read', 'the receipt at the customer')
  t.match(relayed.data, { message_id: first.data.message_id })
  const row = await waitFor(async () => {
    const r = await unread()
    return r.last_read_seq === 1 ? r : undefined
  })
  t.match(row, { unread_count: 0, last_read_seq: 1 }, 'stored for agent-1')

  console1.send({ type: 'read', session_id: sessionId, data: { message_id: 'no-such-message' } })
  const err = await console1.take((f) => f.type === 'error', 'an unknown message')
  t.equal(err.data.code, 'VALIDATION_FAILED')
})
