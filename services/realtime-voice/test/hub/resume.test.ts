import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { customer, hubFixture, service } from '../helpers/hub.ts'
import { messagesOf, open } from '../helpers/socket.ts'

inEachStorageMode(t, 'resume after the last message seen: no gap, no duplicate', async (t, mode) => {
  const fx = await hubFixture(t, mode, { replicas: 2 })
  const [a, b] = fx.hubs as [(typeof fx.hubs)[0], (typeof fx.hubs)[0]]
  const me = customer('cust-r')
  const hubAsService = service('realtime-voice')
  /** a message posted by the customer through conversations, as another hub replica would */
  const post = async (sessionId: string, content: string) => {
    const res = await fx.call(hubAsService, 'POST', `/internal/sessions/${sessionId}/messages`, {
      sender: 'customer',
      customer_id: 'cust-r',
      content,
    })
    if (res.status !== 201) throw new Error(`post: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.message.id as string
  }

  const first = await open(t, a.url, { principal: me })
  first.send({ type: 'text-message', data: 'first' })
  const sessionId: string = (await first.take((f) => f.type === 'session', 'session')).data.session_id
  const seen = await first.take((f) => f.type === 'text-message', 'echo')
  t.equal(seen.data.seq, 1)

  await t.test('what was posted while away comes first, in order, then live', async (t) => {
    first.ws.terminate()
    await first.closed
    const missed = []
    for (const n of [2, 3, 4]) missed.push(await post(sessionId, `missed ${n}`))
    const back = await open(t, b.url, { principal: me })
    back.send({ type: 'join', data: { session_id: sessionId, after: seen.data.message_id } })
    await back.take((f) => f.type === 'session', 'session')
    const history = [
      await back.take((f) => f.type === 'text-message', 'missed 2'),
      await back.take((f) => f.type === 'text-message', 'missed 3'),
      await back.take((f) => f.type === 'text-message', 'missed 4'),
    ]
    t.same(
      history.map((f) => [f.data.message_id, f.data.seq, f.data.content]),
      missed.map((id, i) => [id, i + 2, `missed ${i + 2}`]),
    )
    await post(sessionId, 'live 5')
    const live = await back.take((f) => f.type === 'text-message', 'live 5')
    t.match(live.data, { seq: 5, content: 'live 5' })
    await back.sync()
    t.same(
      messagesOf(back, sessionId).map((f) => f.data.seq),
      [2, 3, 4, 5],
      'exactly the missed ones, then the live one',
    )
  })

  await t.test('?session_id=&after= on the upgrade resumes too', async (t) => {
    const last = await post(sessionId, 'six')
    const id7 = await post(sessionId, 'seven')
    const s = await open(t, a.url, { principal: me, query: { session_id: sessionId, after: last } })
    const got = await s.take((f) => f.type === 'text-message', 'seven')
    t.match(got.data, { message_id: id7, seq: 7 })
  })

  await t.test('live messages racing the history are sent once, in order', async (t) => {
    for (let round = 0; round < 3; round++) {
      const cursor = await post(sessionId, `cursor ${round}`)
      const s = await open(t, round % 2 ? a.url : b.url, { principal: me })
      // messages keep coming while the socket joins: some land in the history, some in the held live frames,
      // some in both (committed before the history is read, their events arriving after)
      const writer = (async () => {
        const ids = []
        for (let i = 0; i < 12; i++) ids.push(await post(sessionId, `race ${round}.${i}`))
        return ids
      })()
      s.send({ type: 'join', data: { session_id: sessionId, after: cursor } })
      const ids = await writer
      const sentinel = await post(sessionId, `sentinel ${round}`)
      await s.take((f) => f.data?.message_id === sentinel, 'the sentinel')
      await s.sync()
      const frames = messagesOf(s, sessionId)
      t.same(
        frames.map((f) => f.data.message_id),
        [...ids, sentinel],
        `round ${round}: every message once, in posting order`,
      )
      const seqs = frames.map((f) => f.data.seq)
      t.ok(
        seqs.every((seq, i) => i === 0 || seq === seqs[i - 1] + 1),
        `round ${round}: seqs without a hole`,
      )
    }
  })

  await t.test('a cursor the session does not hold is refused; the join stands', async (t) => {
    const s = await open(t, a.url, { principal: me })
    s.send({ type: 'join', data: { session_id: sessionId, after: 'not-a-message' } })
    await s.take((f) => f.type === 'session', 'session')
    const err = await s.take((f) => f.type === 'error', 'error')
    t.equal(err.data.code, 'REALTIME_RESUME_UNKNOWN_MESSAGE')
    await post(sessionId, 'still live')
    t.equal((await s.take((f) => f.type === 'text-message', 'live')).data.content, 'still live')
  })
})
