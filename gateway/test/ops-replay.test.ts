// POST /api/ops/dead-letters/replay reads its body: `seqs` replays those dead letters only (the gateway keeps
// bodies as bytes for proxying; its own routes parse them), a body that is not JSON is 400, `{}` replays all.
import { newEnvelope } from '@switchboard/events'
import t from 'tap'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'

t.test('replay by sequence replays only those; bad JSON is 400', async (t) => {
  const h = await harness(t)
  await h.bus.ensureStreams([{ name: 'AUDIT', subjects: ['audit.>'] }])
  const failing = await h.bus.consume(
    { durable: 'c_fail', stream: 'AUDIT', maxDeliver: 1, backoffMs: [10] },
    async () => {
      throw new Error('cannot store')
    },
  )
  t.teardown(() => failing.stop())
  for (const n of [1, 2, 3]) {
    await h.bus.publish(
      'audit.record.recorded',
      newEnvelope({
        type: 'audit.record.recorded',
        tenant_id: 't',
        workspace_id: 'w',
        actor: { user_id: 'u', kind: 'service' },
        data: { n },
      }) as never,
    )
  }
  const deadline = Date.now() + 10_000
  while ((await h.bus.deadLetters()).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  const letters = await h.bus.deadLetters()
  t.equal(letters.length, 3, 'three dead letters')
  await failing.stop()

  const admin = await accessToken(
    seedUser(h, { claims: { roles: ['admin'], tenant_id: '', workspace_id: '', admin_reach: 'platform' } }),
  )
  const headers = { ...bearer(admin), 'content-type': 'application/json' }
  const one = await h.app.inject({
    method: 'POST',
    url: '/api/ops/dead-letters/replay',
    headers,
    payload: JSON.stringify({ seqs: [letters[1]!.seq] }),
  })
  t.equal(one.statusCode, 200, one.body)
  t.same(one.json(), { replayed: 1 }, 'only the one asked for')
  t.same(
    (await h.bus.deadLetters()).map((d) => d.seq),
    [letters[0]!.seq, letters[2]!.seq],
    'the others stay dead letters',
  )
  const unknown = await h.app.inject({
    method: 'POST',
    url: '/api/ops/dead-letters/replay',
    headers,
    payload: JSON.stringify({ seqs: [999_999] }),
  })
  t.same(unknown.json(), { replayed: 0 }, 'an unknown sequence replays nothing')
  t.equal((await h.bus.deadLetters()).length, 2)

  const bad = await h.app.inject({
    method: 'POST',
    url: '/api/ops/dead-letters/replay',
    headers,
    payload: '{"seqs": [',
  })
  t.equal(bad.statusCode, 400, bad.body)
  t.equal(bad.json().code, 'BODY_INVALID_JSON')
  const invalid = await h.app.inject({
    method: 'POST',
    url: '/api/ops/dead-letters/replay',
    headers,
    payload: JSON.stringify({ seqs: ['x'] }),
  })
  t.equal(invalid.statusCode, 400, 'a sequence that is not a number is refused by the schema')
  t.equal((await h.bus.deadLetters()).length, 2, 'nothing replayed by refused requests')

  const all = await h.app.inject({ method: 'POST', url: '/api/ops/dead-letters/replay', headers, payload: '{}' })
  t.same(all.json(), { replayed: 2 }, 'no sequences named: every dead letter')
  t.same(await h.bus.deadLetters(), [])
})
