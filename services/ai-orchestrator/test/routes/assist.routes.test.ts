import { TicketEvents } from '@switchboard/contracts'
import type { Scope } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { TICKET_INDEX_CONSUMER } from '../../src/consumers/ticket-index.consumer.ts'
import { ACME, agent, aiApp, applied, call, GLOBEX, publish } from '../helpers/app.ts'

const ticket = (ticket_id: string, title: string, created_at: string, over: Record<string, unknown> = {}) => ({
  ticket_id,
  title,
  customer_id: 'cust-1',
  agent_id: null,
  category: 'billing',
  priority: 'high',
  status: 'open',
  source: 'web',
  created_at,
  ...over,
})

inEachStorageMode(t, 'assist suggestions', async (t, mode) => {
  const { app, svc } = await aiApp(t, mode)
  const acme = agent(ACME)
  const index = async (scope: Scope, ...tickets: ReturnType<typeof ticket>[]) => {
    for (const facts of tickets) {
      const e = await publish(svc, TicketEvents.created, facts, scope)
      await applied(svc, TICKET_INDEX_CONSUMER, e.id)
    }
  }
  await index(
    ACME,
    ticket('a-1', 'Refund for invoice 42', '2026-11-01T10:00:00.000Z'),
    ticket('a-2', 'Invoice missing', '2026-11-02T10:00:00.000Z', { status: 'resolved', priority: 'low' }),
    ticket('a-3', 'Login error on the app', '2026-11-03T10:00:00.000Z', { category: 'technical' }),
    ticket('a-4', 'Refund invoice twice charged', '2026-11-04T10:00:00.000Z'),
  )
  await index(GLOBEX, ticket('g-1', 'Refund for invoice', '2026-11-05T10:00:00.000Z'))
  const doc = async (who: ReturnType<typeof agent>, title: string, content: string, tags: string[] = []) =>
    (await call(app, who, 'POST', '/api/knowledge-docs', { title, content, tags, category: 'billing' })).json()
      .id as string
  const refundDoc = await doc(acme, 'Refund policy', 'Refunds of an invoice take five days.', ['refund'])
  const invoiceDoc = await doc(acme, 'Invoices', 'Where invoices are sent.')
  await doc(agent(GLOBEX), 'Globex refund invoice', 'Refund invoice at Globex.')

  t.test('GET: intent, similar tickets and docs of the caller scope, best first', async (t) => {
    const res = await call(app, acme, 'GET', `/api/assist/suggest?query=${encodeURIComponent('Refund my invoice')}`)
    t.equal(res.statusCode, 200, res.body)
    const { success, data } = res.json()
    t.equal(success, true)
    t.equal(data.query, 'Refund my invoice')
    t.same(data.intent, { label: 'billing', confidence: 0.7, matches: ['invoice', 'refund'] })
    t.same(data.meta, { tokens: ['refund', 'my', 'invoice'], ticket_candidates: 3, doc_candidates: 2 })
    t.same(
      data.similar_tickets.map((s: { id: string; score: number }) => [s.id, s.score]),
      [
        ['a-4', 0.667],
        ['a-1', 0.667],
        ['a-2', 0.333],
      ],
      'score = share of the tokens in the title; newest first on a tie; no Globex ticket',
    )
    t.same(data.similar_tickets[2], {
      id: 'a-2',
      title: 'Invoice missing',
      status: 'resolved',
      category: 'billing',
      priority: 'low',
      created_at: '2026-11-02T10:00:00.000Z',
      score: 0.333,
    })
    t.same(data.knowledge_docs, [
      { id: refundDoc, title: 'Refund policy', category: 'billing', tags: ['refund'], score: 0.667 },
      { id: invoiceDoc, title: 'Invoices', category: 'billing', tags: [], score: 0.333 },
    ])
  })

  t.test('limits: as asked, capped at 20; candidates newest first', async (t) => {
    const get = async (qs: string) =>
      (await call(app, acme, 'GET', `/api/assist/suggest?query=refund%20invoice&${qs}`)).json().data
    const one = await get('limit=1&doc_limit=1')
    t.equal(one.similar_tickets.length, 1)
    t.equal(one.knowledge_docs.length, 1)
    t.equal((await get('limit=500&doc_limit=500')).similar_tickets.length, 3, 'a cap, not a 400')
    const post = await call(app, acme, 'POST', '/api/assist/suggest', {
      query: 'refund invoice',
      ticket_limit: 10,
      knowledge_doc_limit: 10,
      candidate_ticket_max: 2,
    })
    t.equal(post.statusCode, 200, post.body)
    const data = post.json().data
    t.equal(data.meta.ticket_candidates, 2)
    t.same(
      data.similar_tickets.map((s: { id: string }) => s.id),
      ['a-4', 'a-2'],
      'only the two newest candidates were looked at',
    )
    const many = await call(app, acme, 'POST', '/api/assist/suggest', { query: 'refund', candidate_ticket_max: 5000 })
    t.equal(many.statusCode, 200, 'candidates capped at 1000')
  })

  t.test('another scope sees its own', async (t) => {
    const data = (await call(app, agent(GLOBEX), 'POST', '/api/assist/suggest', { query: 'refund invoice' })).json()
      .data
    t.same(
      data.similar_tickets.map((s: { id: string }) => s.id),
      ['g-1'],
    )
    t.same(
      data.knowledge_docs.map((d: { title: string }) => d.title),
      ['Globex refund invoice'],
    )
  })

  t.test('queries: missing or blank → 400; no token → general 0.2, nothing found', async (t) => {
    for (const res of [
      await call(app, acme, 'GET', '/api/assist/suggest'),
      await call(app, acme, 'GET', '/api/assist/suggest?query='),
      await call(app, acme, 'POST', '/api/assist/suggest', {}),
      await call(app, acme, 'POST', '/api/assist/suggest', { query: '' }),
    ]) {
      t.equal(res.statusCode, 400)
    }
    const blank = await call(app, acme, 'POST', '/api/assist/suggest', { query: '   ' })
    t.equal(blank.statusCode, 400)
    t.equal(blank.json().code, 'ASSIST_QUERY_REQUIRED')
    t.equal((await call(app, acme, 'GET', '/api/assist/suggest?query=x&limit=0')).statusCode, 400)
    const odd = await call(app, acme, 'POST', '/api/assist/suggest', { query: '%_%' })
    t.equal(odd.statusCode, 200)
    t.same(odd.json().data, {
      query: '%_%',
      intent: { label: 'general', confidence: 0.35 },
      similar_tickets: [],
      knowledge_docs: [],
      meta: { tokens: ['_'], ticket_candidates: 0, doc_candidates: 0 },
    })
    const none = (await call(app, acme, 'POST', '/api/assist/suggest', { query: '?!' })).json().data
    t.same(none.intent, { label: 'general', confidence: 0.2 })
    t.same(none.meta, { tokens: [], ticket_candidates: 0, doc_candidates: 0 })
  })

  t.test('Chinese: by character', async (t) => {
    await index(ACME, ticket('a-5', '申请退款', '2026-11-06T10:00:00.000Z'))
    const data = (await call(app, acme, 'POST', '/api/assist/suggest', { query: '退款' })).json().data
    t.match(data.intent, { label: 'billing', matches: ['退款'] })
    t.same(
      data.similar_tickets.map((s: { id: string; score: number }) => [s.id, s.score]),
      [['a-5', 1]],
    )
  })
})
