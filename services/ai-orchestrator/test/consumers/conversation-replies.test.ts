import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { ConversationEvents } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { conversationReplies } from '../../src/consumers/conversation-replies.consumer.ts'
import type { AiService } from '../../src/context.ts'
import { claimReply, findReply, renewReply, settleReply } from '../../src/db/replies.repository.ts'
import { ACME, aiApp, publish } from '../helpers/app.ts'

/**
 * conversations' internal API as the AI reply consumer calls it, as a small real HTTP server: it records the AI
 * messages posted and the hand-overs, and lists the messages it holds.
 */
async function conversationsStandIn() {
  const posted: Array<{ session: string; body: any }> = []
  const handovers: string[] = []
  /** how long a POST of a message takes (a slow conversations: the attempt is still at work meanwhile) */
  const slow = { postMs: 0, failPosts: 0 }
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => {
      raw += c
    })
    req.on('end', async () => {
      const body = raw ? JSON.parse(raw) : undefined
      const m = /^\/internal\/sessions\/([^/]+)\/messages/.exec(req.url ?? '')
      const json = (status: number, v: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v))
      if (m && req.method === 'POST') {
        if (slow.postMs) await sleep(slow.postMs)
        if (slow.failPosts > 0) {
          slow.failPosts--
          return json(503, { code: 'DEPENDENCY_UNAVAILABLE' })
        }
        posted.push({ session: m[1]!, body })
        return json(201, { ok: true })
      }
      if (m && req.method === 'GET') {
        const items = posted
          .filter((p) => p.session === m[1])
          .map((p) => ({ sender: p.body.sender, metadata: p.body.metadata }))
        return json(200, { count: items.length, items })
      }
      if (req.url === '/api/session-transfer/to-human') {
        handovers.push(body.session_id)
        return json(200, { ok: true })
      }
      json(404, { code: 'NOT_FOUND' })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, posted, handovers, slow, close: () => new Promise<void>((r) => server.close(() => r())) }
}

const message = (id: string, content: string) => ({
  message_id: id,
  session_id: `s-${id}`,
  sender: 'customer' as const,
  sender_id: 'cust-1',
  kind: 'text' as const,
  content,
  metadata: {},
  created_at: new Date().toISOString(),
  seq: 1,
  session_status: 'active' as const,
  agent_id: null,
})

inEachStorageMode(t, 'AI replies: answered once, handed over, recovered after a died attempt', async (t, mode) => {
  const conv = await conversationsStandIn()
  t.teardown(conv.close)
  const { svc } = await aiApp(t, mode, { AI_REPLIES_ENABLED: 'true', UPSTREAM_CONVERSATIONS: conv.url })
  const settled = (id: string) =>
    waitFor(() =>
      svc.db
        .selectFrom('ai_replies')
        .selectAll()
        .where('message_id', '=', id)
        .where('outcome', '!=', 'pending')
        .executeTakeFirst(),
    )

  // a question nothing answers: low confidence → a hand-over, announced to the customer
  await publish(svc, ConversationEvents.messageCreated, message('m1', 'what is the meaning of zzqx'), ACME)
  t.match(await settled('m1'), { outcome: 'handed_over' })
  t.equal(conv.posted.length, 1)
  t.match(conv.posted[0]!.body, { sender: 'ai', metadata: { in_reply_to: 'm1', handover: true } })
  t.same(conv.handovers, ['s-m1'])

  // the same message delivered again (a redelivery after a crash, a replay): not answered twice
  await publish(svc, ConversationEvents.messageCreated, message('m1', 'what is the meaning of zzqx'), ACME)
  await publish(svc, ConversationEvents.messageCreated, message('m2', 'I want a human'), ACME)
  await settled('m2')
  t.equal(conv.posted.filter((p) => p.body.metadata.in_reply_to === 'm1').length, 1, 'm1 answered once')

  // an attempt that died after writing its reply (claimed, still pending): the next one finds it and writes nothing
  conv.posted.push({ session: 's-m3', body: { sender: 'ai', metadata: { in_reply_to: 'm3', handover: false } } })
  await svc.db
    .insertInto('ai_replies')
    .values({
      message_id: 'm3',
      session_id: 's-m3',
      ...ACME,
      outcome: 'pending',
      query_id: null,
      created_at: new Date().toISOString(),
    })
    .execute()
  await publish(svc, ConversationEvents.messageCreated, message('m3', 'when are refunds paid'), ACME)
  t.match(await settled('m3'), { outcome: 'answered' })
  t.equal(conv.posted.filter((p) => p.body.metadata.in_reply_to === 'm3').length, 1, 'not written again')

  // an agent's message, or one in a session a human handles: not the AI's
  await publish(svc, ConversationEvents.messageCreated, { ...message('m4', 'hello'), agent_id: 'agent-1' }, ACME)
  await publish(svc, ConversationEvents.messageCreated, { ...message('m5', 'hello'), sender: 'agent' as const }, ACME)
  // an internal note is never the AI's input: an agent's, or any other sender's
  const note = { visibility: 'internal' as const }
  await publish(
    svc,
    ConversationEvents.messageCreated,
    { ...message('m7', 'hello'), ...note, sender: 'agent' as const },
    ACME,
  )
  await publish(svc, ConversationEvents.messageCreated, { ...message('m8', 'when are refunds paid'), ...note }, ACME)
  await publish(svc, ConversationEvents.messageCreated, message('m6', 'I want a human'), ACME)
  await settled('m6')
  t.notOk(
    conv.posted.some((p) => ['m4', 'm5', 'm7', 'm8'].includes(p.body.metadata.in_reply_to)),
    'left to the humans',
  )
  t.notOk(
    await svc.db
      .selectFrom('ai_replies')
      .select('message_id')
      .where('message_id', 'in', ['m7', 'm8'])
      .executeTakeFirst(),
    'a note is not even claimed',
  )
})

/** One delivery of `m` handed to the consumer directly, as a replica's consumer loop would (no bus in between). */
function deliver(svc: AiService, m: ReturnType<typeof message>) {
  const envelope = newEnvelope({
    type: ConversationEvents.messageCreated.type,
    ...ACME,
    actor: { user_id: 'cust-1', kind: 'end_user' },
    data: m,
  })
  const delivery: Delivery = { subject: envelope.type, envelope, seq: 1, deliveryCount: 1, headers: {} }
  if (conversationReplies.idempotency !== 'handler' || !('handlers' in conversationReplies)) {
    throw new Error('the AI replies consumer is idempotent itself, with typed handlers')
  }
  const [handler] = conversationReplies.handlers
  return handler!.handle({ ...delivery, data: m }, svc)
}

const replyRow = (id: string) => ({
  message_id: id,
  session_id: `s-${id}`,
  ...ACME,
  created_at: new Date().toISOString(),
})

inEachStorageMode(
  t,
  'AI reply leases: claim, live lease held, expired lease taken over once, holder settles',
  async (t, mode) => {
    const { svc } = await aiApp(t, mode)
    const db = svc.db
    const LEASE = 200

    t.match(await claimReply(db, replyRow('L1'), 'A', LEASE), { kind: 'claimed' }, 'the first attempt claims')
    t.match(await claimReply(db, replyRow('L1'), 'B', LEASE), { kind: 'held', by: 'A' }, 'a live lease is not taken')
    t.equal(await settleReply(db, 'L1', 'B', 'answered', null), false, 'a non-holder cannot settle')
    t.equal(await renewReply(db, 'L1', 'B', LEASE), false, 'nor renew')
    t.equal(await renewReply(db, 'L1', 'A', LEASE), true, 'the holder renews')

    // A stops renewing (died): once its lease ran out, exactly one of two racing attempts takes it over
    await sleep(LEASE + 50)
    const race = await Promise.all([
      claimReply(db, replyRow('L1'), 'B', LEASE),
      claimReply(db, replyRow('L1'), 'C', LEASE),
    ])
    const winners = race.filter((c) => c.kind === 'taken_over')
    t.equal(winners.length, 1, `one takeover wins (${race.map((c) => c.kind).join(', ')})`)
    t.match(winners[0], { previous: 'A' })
    const taker = race[0]?.kind === 'taken_over' ? 'B' : 'C'
    t.match(
      race.find((c) => c.kind !== 'taken_over'),
      { kind: 'held', by: taker },
    )
    t.equal((await findReply(db, 'L1'))?.claimed_by, taker, 'the lease names its new holder')

    // the stale holder can neither renew nor settle; the new one settles, once
    t.equal(await renewReply(db, 'L1', 'A', LEASE), false, 'the stale holder lost the lease')
    t.equal(await settleReply(db, 'L1', 'A', 'answered', null), false, 'the stale holder cannot settle')
    t.equal(await settleReply(db, 'L1', taker, 'answered', 'q-1'), true, 'the holder settles')
    t.equal(await settleReply(db, 'L1', taker, 'skipped', null), false, 'once')
    t.match(await findReply(db, 'L1'), { outcome: 'answered', query_id: 'q-1' })
    t.match(await claimReply(db, replyRow('L1'), 'D', LEASE), { kind: 'settled', outcome: 'answered' })
    await sleep(LEASE + 50)
    t.match(await claimReply(db, replyRow('L1'), 'D', LEASE), { kind: 'settled' }, 'a settled reply is never taken')
  },
)

inEachStorageMode(t, 'AI replies: concurrent attempts answer once, a died attempt is taken over', async (t, mode) => {
  const conv = await conversationsStandIn()
  t.teardown(conv.close)
  // wide enough that a loaded machine's event-loop lag does not outlast a renewal (it flaked at 400 ms, load ~35)
  const LEASE = 1000
  const { svc } = await aiApp(t, mode, {
    AI_REPLIES_ENABLED: 'true',
    UPSTREAM_CONVERSATIONS: conv.url,
    AI_REPLY_LEASE_MS: String(LEASE),
  })
  t.equal(svc.config.reply_lease_ms, LEASE)
  const replies = (id: string) => conv.posted.filter((p) => p.body.metadata.in_reply_to === id)

  // two deliveries of one message at once (a redelivery while the first attempt is still writing): one answer
  conv.slow.postMs = 1500 // longer than the lease: the holder keeps it by renewing
  const started = Date.now()
  await Promise.all([deliver(svc, message('c1', 'I want a human')), deliver(svc, message('c1', 'I want a human'))])
  t.equal(replies('c1').length, 1, 'exactly one reply')
  t.equal(conv.handovers.filter((s) => s === 's-c1').length, 1, 'one hand-over')
  t.match(await findReply(svc.db, 'c1'), { outcome: 'handed_over' })
  t.ok(Date.now() - started >= 1500, 'the second delivery waited for the first to settle')
  // and five at once, on a fresh message
  await Promise.all(Array.from({ length: 5 }, () => deliver(svc, message('c2', 'when are refunds paid'))))
  t.equal(replies('c2').length, 1, 'five deliveries, one reply')
  conv.slow.postMs = 0

  // an attempt that died holding the lease (claimed, nothing written): taken over once the lease runs out, answered
  t.match(await claimReply(svc.db, replyRow('c3'), 'dead-replica/1/x', LEASE), { kind: 'claimed' })
  const before = Date.now()
  await Promise.all([deliver(svc, message('c3', 'I want a human')), deliver(svc, message('c3', 'I want a human'))])
  t.ok(Date.now() - before >= LEASE - 50, 'not before the lease ran out')
  t.equal(replies('c3').length, 1, 'answered once by the attempts that took over')
  const row = await findReply(svc.db, 'c3')
  t.match(row, { outcome: 'handed_over' })
  t.not(row?.claimed_by, 'dead-replica/1/x', 'settled by the attempt that took it over')
  t.equal(await settleReply(svc.db, 'c3', 'dead-replica/1/x', 'answered', null), false, 'the dead holder cannot settle')

  // an attempt that failed (conversations down) gives its lease up: the redelivery answers at once, once
  conv.slow.failPosts = 1
  await t.rejects(deliver(svc, message('c4', 'I want a human')), /503/, 'the first attempt fails')
  t.match(await findReply(svc.db, 'c4'), { outcome: 'pending', claimed_until: null }, 'its lease given up')
  const retried = Date.now()
  await deliver(svc, message('c4', 'I want a human'))
  t.ok(Date.now() - retried < LEASE, 'the redelivery did not wait the lease out')
  t.equal(replies('c4').length, 1, 'answered once')
  t.match(await findReply(svc.db, 'c4'), { outcome: 'handed_over' })
})
