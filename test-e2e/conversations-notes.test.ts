// Internal notes end to end through the gateway, in both run modes: a note written by an agent's console over the
// hub (`text-message {internal: true}`) and over HTTP (`POST …/messages {internal: true}`) reaches the staff — the
// console, the staff's message list — and never a customer's or a visitor's socket, live or resumed, nor a
// customer's API read.
import { login } from './harness/auth.ts'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { type Frame, openSocket, type RealtimeSocket } from './harness/realtime-kit.ts'

const SECRET = 'staff only'
const leaks = (s: RealtimeSocket) =>
  s.frames.filter((f: Frame) => JSON.stringify(f.data ?? null).includes(SECRET) || f.data?.visibility === 'internal')

inEachMode('conversations: internal notes', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('cvnote')
  const alice = await kit.agent(scope, 'alice', { online: true })
  const carol = await kit.customer(scope, 'carol')
  await kit.onlineAgents(scope, 1)
  const aliceToken = (await kit.agentLogin(alice)).token
  const carolToken = (await login(api, carol.username, carol.password)).token

  const console1 = await openSocket(system.url, { token: aliceToken, via: 'protocol' }, t)
  const customer = await openSocket(system.url, { token: carolToken }, t)
  customer.send({ type: 'text-message', data: 'Where is my order?' })
  const sessionId: string = (await customer.next('session')).data.session_id
  const visitor = await openSocket(
    system.url,
    { query: { tenant_id: scope.tenant_id, workspace_id: scope.workspace_id } },
    t,
  )
  visitor.send({ type: 'text-message', data: 'Hello from the widget' })
  const visitorSession: string = (await visitor.next('session')).data.session_id
  for (const id of [sessionId, visitorSession]) {
    const r = await api.post(`/api/omni/sessions/${id}/assign`, { agent_id: alice.user_id }, { token: aliceToken })
    t.equal(r.status, 200, r.text)
  }

  t.test('a note reaches the console and the staff list, never the customer or the visitor', async (t) => {
    console1.send({
      type: 'text-message',
      session_id: sessionId,
      data: { content: `${SECRET}: over the hub`, internal: true },
    })
    const live = await console1.take((f) => f.data?.content === `${SECRET}: over the hub`, 'the note at the console')
    t.match(live, {
      type: 'agent-message',
      session_id: sessionId,
      data: { visibility: 'internal', sender_id: alice.user_id },
    })
    for (const id of [sessionId, visitorSession]) {
      const note = await api.post(
        `/api/omni/sessions/${id}/messages`,
        { content: `${SECRET}: over HTTP`, internal: true },
        { token: aliceToken },
      )
      t.equal(note.status, 201, note.text)
      t.equal(note.body.visibility, 'internal')
      const reply = await api.post(
        `/api/omni/sessions/${id}/messages`,
        { content: 'a public reply' },
        { token: aliceToken },
      )
      t.equal(reply.status, 201, reply.text)
    }
    t.match((await customer.next('agent-message')).data, { content: 'a public reply', visibility: 'public' })
    t.match((await visitor.next('agent-message')).data, { content: 'a public reply' })
    await customer.sync()
    await visitor.sync()
    t.same(leaks(customer), [], 'the customer got no note')
    t.same(leaks(visitor), [], 'the visitor got no note')

    const staff = must(await api.get(`/api/omni/sessions/${sessionId}/messages`, { token: aliceToken }), 200, 'list')
    t.same(
      staff.items.filter((m: any) => m.visibility === 'internal').map((m: any) => m.content),
      [`${SECRET}: over the hub`, `${SECRET}: over HTTP`],
      'staff read the notes',
    )
    const asCustomer = await api.get(`/api/omni/sessions/${sessionId}/messages`, { token: carolToken })
    t.ok(asCustomer.status === 403 || asCustomer.status === 404, `a customer reads no list (${asCustomer.status})`)
  })

  t.test('a customer resuming gets what it missed, without a note', async (t) => {
    const first = customer.messages(sessionId)[0]!.data.message_id as string
    const back = await openSocket(system.url, { token: carolToken }, t)
    back.send({ type: 'join', data: { session_id: sessionId, after: first } })
    await back.take((f) => f.data?.content === 'a public reply', 'the missed reply')
    await back.sync()
    t.same(leaks(back), [], 'no note in the resume')
    t.notOk(
      back.messages(sessionId).some((f) => f.data.visibility === 'internal'),
      'only public messages',
    )
  })
})
