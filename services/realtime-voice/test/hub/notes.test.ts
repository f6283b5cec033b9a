// Internal notes on the hub: a note's frame reaches console and service sockets only — never a customer's or a
// visitor's, live or in a resume — on any replica; a console writes one with `text-message {internal: true}`.
import { inEachStorageMode } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { agent, customer, hubFixture, service } from '../helpers/hub.ts'
import { type Frame, messagesOf, open, type Sock } from '../helpers/socket.ts'

const WIDGET = { tenant_id: 'acme', workspace_id: 'support' }
const SECRET = /staff only/

/** No frame the socket ever got mentions a note: neither its text nor its visibility. */
function noNote(t: Test, s: Sock, who: string) {
  const leaked = s.frames.filter((f: Frame) => SECRET.test(JSON.stringify(f.data)) || f.data?.visibility === 'internal')
  t.same(leaked, [], `${who} got no note`)
}

inEachStorageMode(t, 'internal notes on the hub', async (t, mode) => {
  const fx = await hubFixture(t, mode, { replicas: 2 })
  const [a, b] = fx.hubs as [(typeof fx.hubs)[0], (typeof fx.hubs)[0]]
  await fx.seedAgent('agent-1')
  const me = customer('cust-n')
  const staffConsole = await open(t, b.url, { principal: agent('agent-1') })
  const monitor = await open(t, a.url, { principal: service('monitor') })

  const cust = await open(t, a.url, { principal: me })
  cust.send({ type: 'text-message', data: 'Hello' })
  const sessionId: string = (await cust.take((f) => f.type === 'session', 'session')).data.session_id
  const visitor = await open(t, b.url, { query: WIDGET })
  visitor.send({ type: 'text-message', data: 'Hi from a visitor' })
  const vStart = await visitor.take((f) => f.type === 'session', 'visitor session')
  const visitorSession: string = vStart.data.session_id

  for (const id of [sessionId, visitorSession]) {
    const res = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${id}/assign`, { agent_id: 'agent-1' })
    t.equal(res.status, 200)
  }
  monitor.send({ type: 'join', data: { session_id: sessionId } })
  await monitor.take((f) => f.type === 'session', 'the monitor joined')

  await t.test(
    'live: a note over the socket and over HTTP reaches staff only; the next reply still flows',
    async (t) => {
      staffConsole.send({
        type: 'text-message',
        session_id: sessionId,
        data: { content: 'staff only: VIP customer', internal: true },
      })
      const mine = await staffConsole.take(
        (f) => f.data?.content === 'staff only: VIP customer',
        'the note at the console',
      )
      t.match(mine, { type: 'agent-message', data: { visibility: 'internal', sender_id: 'agent-1', seq: 3 } })
      await monitor.take((f) => f.data?.content === 'staff only: VIP customer', 'the note at a service socket')
      const http = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${visitorSession}/messages`, {
        content: 'staff only: visitor note',
        internal: true,
      })
      t.equal(http.status, 201)
      await staffConsole.take((f) => f.data?.content === 'staff only: visitor note', 'the visitor-session note')

      staffConsole.send({ type: 'text-message', session_id: sessionId, data: 'public answer' })
      const reply = await cust.take((f) => f.type === 'agent-message', 'the public reply')
      t.match(reply.data, { content: 'public answer', seq: 4, visibility: 'public' })
      await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${visitorSession}/messages`, {
        content: 'hello visitor',
      })
      await visitor.take((f) => f.type === 'agent-message', 'the public reply at the visitor')
      await cust.sync()
      await visitor.sync()
      noNote(t, cust, 'the customer')
      noNote(t, visitor, 'the visitor')
    },
  )

  await t.test('resume: a customer gets what it missed but no note; a console gets the note', async (t) => {
    const last = messagesOf(cust, sessionId).at(-1)!.data.message_id as string
    cust.ws.terminate()
    await cust.closed
    await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/messages`, {
      content: 'staff only: while away',
      internal: true,
    })
    const missed = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/messages`, {
      content: 'missed reply',
    })
    t.equal(missed.status, 201)
    const back = await open(t, b.url, { principal: me })
    back.send({ type: 'join', data: { session_id: sessionId, after: last } })
    const got = await back.take((f) => f.data?.content === 'missed reply', 'the missed reply')
    t.equal(got.data.seq, 6, 'its own seq (5 was the note)')
    // live after the resume: the window is not held open by the note's hole
    await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/messages`, {
      content: 'staff only: live again',
      internal: true,
    })
    await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/messages`, { content: 'live reply' })
    await back.take((f) => f.data?.content === 'live reply', 'live after the resume')
    await back.sync()
    t.same(
      messagesOf(back, sessionId).map((f) => f.data.content),
      ['missed reply', 'live reply'],
      'what it missed, then live, once each',
    )
    noNote(t, back, 'the resumed customer')

    const resumedConsole = await open(t, a.url, { principal: agent('agent-1') })
    resumedConsole.send({ type: 'join', data: { session_id: sessionId, after: last } })
    const note = await resumedConsole.take((f) => f.data?.content === 'staff only: while away', 'the note in a resume')
    t.match(note.data, { visibility: 'internal', seq: 5 })
  })

  await t.test("a customer's or visitor's socket cannot write a note", async (t) => {
    visitor.send({ type: 'text-message', session_id: visitorSession, data: { content: 'x', internal: true } })
    const err = await visitor.take((f) => f.type === 'error', 'refused')
    t.equal(err.data.code, 'REALTIME_FRAME_NOT_ALLOWED')
  })
})
