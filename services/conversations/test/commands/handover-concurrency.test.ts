import type { Scope } from '@switchboard/platform'
import { storageFixture } from '@switchboard/testing'
import t from 'tap'
import { processQueue, queueSettled } from '../../src/commands/queue.commands.ts'
import { closeText } from '../../src/domain/session-rules.ts'
import { as, conversationsApp, principal, servicePrincipal } from '../helpers/app.ts'
import { QUIET_QUEUE, seedAgents, seedSession, seedWaiting } from '../helpers/queue.ts'

// Two replicas on one PostgreSQL schema: the queue runs on both while agents close, assign, hand over to an
// agent or to a human, and the service writes into the same sessions — every lock of README "Lock order" taken
// by both at once. Whatever the interleaving: no deadlock or other failure, no agent past its capacity, no
// waiting record served twice, nothing happens to a session after it was closed, and every session's messages
// are numbered 1..n.

const ROUNDS = 5
const OPS = 80
const CAPACITY = 2

/** A small seeded generator: a failing round can be replayed. */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

t.test('the queue beside close, assign, to-agent and to-human on two replicas (postgres)', async (t) => {
  const store = await storageFixture(t, 'postgres', 'cvho')
  const replicas = await Promise.all([0, 1].map(() => conversationsApp(t, 'postgres', { store, env: QUIET_QUEUE })))
  const failures: unknown[] = []
  for (const { svc } of replicas) {
    const log = svc.log as unknown as Record<'error' | 'warn', (...args: unknown[]) => void>
    log.error = (...args) => failures.push(args)
    log.warn = (...args) => failures.push(args)
  }
  const db = replicas[0]!.svc.db
  const answered = new Map<number, number>()

  for (let round = 0; round < ROUNDS; round++) {
    const scope: Scope = { tenant_id: `ho-${round}`, workspace_id: 'support' }
    const next = random(round + 1)
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
    const agents = ['ag-a', 'ag-b', 'ag-c', 'ag-d']
    await seedAgents(
      replicas[0]!.svc,
      agents.map((user_id) => ({ user_id, max_concurrent: CAPACITY, scope })),
    )
    const open = await Promise.all(Array.from({ length: 10 }, () => seedSession(replicas[0]!.svc, scope)))
    const waiting = await seedWaiting(
      replicas[0]!.svc,
      Array.from({ length: 6 }, () => ({ scope })),
    )
    const sessions = [...open, ...waiting].map((s) => s.id)
    const staff = await as(principal({ user_id: 'sup', ...scope, permissions: ['*'] }))
    const hub = await as(servicePrincipal({ ...scope }))

    const op = async (i: number) => {
      const { app, svc } = replicas[i % 2]!
      const session = pick(sessions)
      const post = (url: string, payload: object, headers = staff) =>
        app.inject({ method: 'POST', url, payload, headers })
      let res: { statusCode: number; body: string }
      switch (Math.floor(next() * 6)) {
        case 0:
          return processQueue(svc, scope)
        case 1:
          res = await post(`/api/omni/sessions/${session}/close`, {})
          break
        case 2:
          res = await post(`/api/omni/sessions/${session}/assign`, { agent_id: pick(agents) })
          break
        case 3:
          res = await post('/api/session-transfer/to-agent', { session_id: session, target_agent_id: pick(agents) })
          break
        case 4:
          res = await post('/api/session-transfer/to-human', {
            session_id: session,
            priority: pick(['normal', 'high']),
          })
          break
        default:
          res = await post(`/internal/sessions/${session}/messages`, { sender: 'system', content: `note ${i}` }, hub)
      }
      answered.set(res.statusCode, (answered.get(res.statusCode) ?? 0) + 1)
      if (![200, 201, 409].includes(res.statusCode)) failures.push(res.body)
    }
    await Promise.all(Array.from({ length: OPS }, (_, i) => op(i)))
    await Promise.all(replicas.map(({ svc }) => queueSettled(svc)))
    await processQueue(replicas[0]!.svc, scope)

    const inScope = <Q extends { where: (...a: any[]) => Q }>(q: Q) =>
      q.where('tenant_id', '=', scope.tenant_id).where('workspace_id', '=', scope.workspace_id)
    const rows = await inScope(db.selectFrom('sessions').selectAll()).execute()
    const loads = new Map<string, number>()
    for (const s of rows) {
      if (s.agent_id && (s.status === 'active' || s.status === 'transferred')) {
        loads.set(s.agent_id, (loads.get(s.agent_id) ?? 0) + 1)
      }
    }
    t.ok(
      [...loads.values()].every((n) => n <= CAPACITY),
      `round ${round}: no agent past its capacity`,
    )

    const records = await inScope(db.selectFrom('waiting').selectAll()).execute()
    const queueTransfers = await inScope(db.selectFrom('transfers').selectAll().where('kind', '=', 'queue')).execute()
    const served = records.filter((w) => w.status === 'transferred').length
    t.ok(queueTransfers.length <= served, `round ${round}: the queue served no record twice`)
    for (const s of rows) {
      const mine = records.filter((w) => w.session_id === s.id && w.status === 'waiting')
      if (s.status === 'waiting_human') {
        t.ok(mine.length === 1 && s.agent_id === null, `round ${round}: a waiting session waits once, for nobody`)
      } else {
        t.equal(mine.length, 0, `round ${round}: a ${s.status} session has left the queue`)
      }
    }

    const messages = await inScope(
      db.selectFrom('messages').select(['session_id', 'seq', 'content', 'created_at']).orderBy('seq'),
    ).execute()
    const transfers = await inScope(db.selectFrom('transfers').select(['session_id', 'transferred_at'])).execute()
    for (const s of rows) {
      const own = messages.filter((m) => m.session_id === s.id)
      t.same(
        own.map((m) => Number(m.seq)),
        Array.from({ length: Number(s.message_count) }, (_, k) => k + 1),
        `round ${round}: messages numbered 1..n`,
      )
      if (s.status !== 'closed') continue
      t.equal(own.at(-1)?.content, closeText(undefined), `round ${round}: closing was the last word`)
      const after = transfers.filter((x) => x.session_id === s.id && x.transferred_at > s.ended_at!)
      t.equal(after.length, 0, `round ${round}: no hand-over after the close`)
    }
  }
  t.same(failures, [], 'no deadlock, no failed pass, no unexpected answer')
  t.ok((answered.get(200) ?? 0) > 0 && (answered.get(409) ?? 0) > 0, 'both outcomes seen')
  t.comment(`answers: ${JSON.stringify(Object.fromEntries(answered))}`)
})
