import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConversationEvents } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { ACME, aiApp, publish } from '../helpers/app.ts'

/**
 * conversations' internal API as the AI reply consumer calls it, as a small real HTTP server: it records the AI
 * messages posted and the hand-overs, and lists the messages it holds.
 */
async function conversationsStandIn() {
  const posted: Array<{ session: string; body: any }> = []
  const handovers: string[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => {
      raw += c
    })
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined
      const m = /^\/internal\/sessions\/([^/]+)\/messages/.exec(req.url ?? '')
      const json = (status: number, v: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v))
      if (m && req.method === 'POST') {
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
  return { url, posted, handovers, close: () => new Promise<void>((r) => server.close(() => r())) }
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
  await publish(svc, ConversationEvents.messageCreated, message('m6', 'I want a human'), ACME)
  await settled('m6')
  t.notOk(
    conv.posted.some((p) => ['m4', 'm5'].includes(p.body.metadata.in_reply_to)),
    'left to the humans',
  )
})
