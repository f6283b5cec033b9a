import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { storageFixture } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, servicePrincipal } from '../helpers/app.ts'

// Two replicas on one PostgreSQL schema write into one session, the second in a process of its own with its clock
// 1.5 s behind (a replica has its own clock and UUIDv7 generator: ids of two replicas sort by their clocks, and
// within one millisecond in no particular order, never by commit). A client resuming with `after=<the last id it
// saw>` must never skip a message, and a session's messages list in the order they were committed: their `seq`.

const REPLICA = fileURLToPath(new URL('../helpers/replica.ts', import.meta.url))
const CUSTOMER = 'cust-r'

type Answer = { ready?: true; ids?: string[]; error?: string }

function ask(child: ChildProcess, order?: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the replica exited (${code})`))
    child.once('exit', onExit)
    child.once('message', (m: Answer) => {
      child.off('exit', onExit)
      if (m.error) reject(new Error(m.error))
      else resolve(m)
    })
    if (order) child.send(order)
  })
}

t.test('two replicas post into one session at once: after never skips, the list is in seq order', async (t) => {
  const store = await storageFixture(t, 'postgres', 'cvseq')
  const { app, svc } = await conversationsApp(t, 'postgres', { store, env: { QUEUE_INTERVAL_MS: '3600000' } })
  const replica = fork(REPLICA, {
    env: { ...process.env, CV_REPLICA_STORAGE: JSON.stringify(store), CV_REPLICA_CLOCK_SKEW_MS: '-1500' },
  })
  t.teardown(() => {
    if (replica.exitCode === null) replica.kill()
  })
  await ask(replica)
  const hub = await as(servicePrincipal())

  const first = await app.inject({
    method: 'POST',
    url: '/internal/sessions',
    headers: hub,
    payload: { sender: 'customer', customer_id: CUSTOMER, content: 'start' },
  })
  t.equal(first.statusCode, 201)
  const sessionId: string = first.json().session.id
  const postHere = async (content: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/internal/sessions/${sessionId}/messages`,
      headers: hub,
      payload: { sender: 'customer', customer_id: CUSTOMER, content },
    })
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`)
  }
  const postThere = (contents: string[]) =>
    ask(replica, { op: 'post', session_id: sessionId, customer_id: CUSTOMER, contents })

  // The client: resumes after the last message it saw, as the hub does on a reconnect.
  const seen: string[] = []
  let cursor: string = first.json().message.id
  seen.push('start')
  const catchUp = async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/internal/sessions/${sessionId}/messages?after=${cursor}&limit=200`,
      headers: hub,
    })
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`)
    const items: Array<{ id: string; content: string }> = res.json().items
    for (const m of items) seen.push(m.content)
    if (items.length > 0) cursor = items.at(-1)!.id
  }

  // In turns, each message committed after the one before and read at once: a later message whose id sorts
  // before the cursor would never be read.
  const written: string[] = ['start']
  for (let i = 0; i < 30; i++) {
    await postHere(`a${i}`)
    written.push(`a${i}`)
    await catchUp()
    await postThere([`b${i}`])
    written.push(`b${i}`)
    await catchUp()
  }
  t.same(seen, written, 'in turns: every message read once, in the order written')

  // At once: both replicas post 50 each while the client keeps catching up.
  let writing = true
  const reader = (async () => {
    while (writing) await catchUp()
  })()
  const here = (async () => {
    for (let i = 0; i < 50; i++) await postHere(`c${i}`)
  })()
  const there = postThere(Array.from({ length: 50 }, (_, i) => `d${i}`))
  await Promise.all([here, there])
  writing = false
  await reader
  await catchUp()

  const list = await app.inject({
    method: 'GET',
    url: `/internal/sessions/${sessionId}/messages?limit=200`,
    headers: hub,
  })
  const listed: Array<{ id: string; content: string }> = list.json().items
  t.equal(listed.length, 161, 'every message listed')
  t.same(
    seen,
    listed.map((m) => m.content),
    'the client read every message once, in the listed order',
  )
  const bySeq = await svc.db
    .selectFrom('messages')
    .select(['id', 'seq'])
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute()
  t.same(
    listed.map((m) => m.id),
    bySeq.map((r) => r.id),
    'the list is in seq order',
  )
  t.same(
    bySeq.map((r) => Number(r.seq)),
    Array.from({ length: 161 }, (_, i) => i + 1),
    'seq numbers the session 1..n without gaps',
  )
  const ofReplica = (prefix: string) => listed.map((m) => m.content).filter((c) => c.startsWith(prefix))
  t.same(
    ofReplica('c'),
    Array.from({ length: 50 }, (_, i) => `c${i}`),
    'each replica’s messages in its own order',
  )
  t.same(
    ofReplica('d'),
    Array.from({ length: 50 }, (_, i) => `d${i}`),
  )
  const session = await svc.db
    .selectFrom('sessions')
    .select('message_count')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow()
  t.equal(Number(session.message_count), 161)

  await ask(replica, { op: 'close' }).catch(() => undefined)
})
