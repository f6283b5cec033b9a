// A console that reconnects follows the sessions assigned to its agent at once (their frames come unasked) and then
// rejoins them with `after`: a message it already got live on the new socket is not sent again by the resume's
// history, and one it missed is (the chaos bench saw the same seq twice on a console's new socket).
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { agent, hubFixture } from '../helpers/hub.ts'
import { messagesOf, open } from '../helpers/socket.ts'

const WIDGET = { tenant_id: 'acme', workspace_id: 'support' }

inEachStorageMode(t, "a console's rejoin after live frames of its assigned session", async (t, mode) => {
  const fx = await hubFixture(t, mode)
  await fx.seedAgent('agent-1')
  const visitor = await open(t, fx.hub.url, { query: WIDGET })
  visitor.send({ type: 'text-message', data: 'Where is my parcel?' })
  const sessionId: string = (await visitor.take((f) => f.type === 'session', 'the session frame')).data.session_id
  const assigned = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/assign`, {
    agent_id: 'agent-1',
  })
  t.equal(assigned.status, 200)
  const post = async (content: string) => {
    const res = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/messages`, { content })
    if (res.status !== 201) throw new Error(`post: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body as { id: string; seq: number }
  }
  // the console saw up to `seen`; `missed` came while it was away
  const seen = await post('seen before the reconnect')
  const missed = await post('missed while away')
  const console1 = await open(t, fx.hub.url, { principal: agent('agent-1') })
  // on the new socket, before its rejoin: a live frame of the assigned session (the console follows it)
  const live = await post('live before the rejoin')
  await console1.take((f) => f.data?.message_id === live.id, 'the live frame')
  console1.send({ type: 'join', data: { session_id: sessionId, after: seen.id } })
  await console1.take((f) => f.type === 'session', 'the join answered')
  const after = await post('after the rejoin')
  await console1.take((f) => f.data?.message_id === after.id, 'the next live frame')
  await console1.sync()
  const seqs = messagesOf(console1, sessionId).map((f) => f.data.seq as number)
  t.same(
    [...seqs].sort((a, b) => a - b),
    [missed.seq, live.seq, after.seq],
    `each once: the missed one from the history, the live ones live (came ${seqs.join(', ')})`,
  )
})
