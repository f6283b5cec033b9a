import { inEachStorageMode, storageFixture } from '@switchboard/testing'
import t from 'tap'
import { agentLoad } from '../../src/db/sessions.repository.ts'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { ACME, QUIET_QUEUE, seedAgents, seedSession } from '../helpers/queue.ts'

// Concurrent POST /api/agents/:id/assign-session calls for one agent never take it past max_concurrent: every
// assignment locks the agent's row (PostgreSQL; SQLite has one writer) before counting its load. On PostgreSQL the
// calls are spread over two replicas of one schema, as in the fleet.

const CAPACITY = 2
const CALLS = 8

inEachStorageMode(t, 'concurrent assign-session calls respect max_concurrent', async (t, mode) => {
  const store = await storageFixture(t, mode, 'cvac')
  const replicas = await Promise.all(
    Array.from({ length: mode === 'postgres' ? 2 : 1 }, () => conversationsApp(t, mode, { store, env: QUIET_QUEUE })),
  )
  const { svc } = replicas[0]!
  await seedAgents(svc, [{ user_id: 'u-cap', max_concurrent: CAPACITY }])
  const headers = await as(principal({ user_id: 'adm', kind: 'admin', permissions: ['*'] }))

  for (let round = 0; round < 3; round++) {
    const sessions = await Promise.all(Array.from({ length: CALLS }, () => seedSession(svc)))
    const answers = await Promise.all(
      sessions.map((s, i) =>
        replicas[i % replicas.length]!.app.inject({
          method: 'POST',
          url: '/api/agents/ag-u-cap-acme-support/assign-session',
          payload: { session_id: s.id },
          headers,
        }),
      ),
    )
    const ok = answers.filter((r) => r.statusCode === 200)
    t.equal(ok.length, CAPACITY, `round ${round}: as many assignments as seats`)
    t.same(
      answers.filter((r) => r.statusCode !== 200).map((r) => r.json().code),
      Array(CALLS - CAPACITY).fill('CONVERSATIONS_AGENT_AT_CAPACITY'),
      'the others are refused as at capacity',
    )
    t.ok(
      ok.every((r) => r.json().current_load <= CAPACITY),
      'no answer reports a load past capacity',
    )
    t.equal(await agentLoad(svc.db, 'u-cap', ACME), CAPACITY, 'the stored load is the capacity')
    // free the seats for the next round
    for (const r of ok) {
      const res = await replicas[0]!.app.inject({
        method: 'POST',
        url: '/api/agents/ag-u-cap-acme-support/release-session',
        payload: { session_id: r.json().session_id },
        headers,
      })
      t.equal(res.statusCode, 200)
    }
    t.equal(await agentLoad(svc.db, 'u-cap', ACME), 0, 'released: no load')
  }
})
