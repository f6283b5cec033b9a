import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ProviderError } from '../../src/providers/port.ts'
import { ACME, agent, aiApp, call, GLOBEX, platformAdmin } from '../helpers/app.ts'

const SYSTEM = { tenant_id: '', workspace_id: '' }

inEachStorageMode(t, 'the local knowledge base', async (t, mode) => {
  const { app, svc } = await aiApp(t, mode)
  const local = svc.runtimes.system.providers.local
  const write = async (who: ReturnType<typeof agent>, title: string, content: string) => {
    const res = await call(app, who, 'POST', '/api/knowledge-docs', { title, content })
    t.equal(res.statusCode, 201, res.body)
    return res.json().id as string
  }
  const acme = agent(ACME)
  const reset = await write(acme, 'Reset your password', 'To reset a forgotten password open Settings and press Reset.')
  const policy = await write(acme, 'Password rules', 'A password has at least twelve characters.')
  const billing = await write(acme, 'Invoices', 'Invoices are sent monthly; a refund takes five days.')
  const chinese = await write(acme, '退款说明', '申请退款流程：在订单页面点击退款。')
  const accents = await write(acme, 'Café opening hours', 'Le café ouvre à huit heures.')
  await write(agent(GLOBEX), 'Reset your password at Globex', 'Globex resets passwords by phone.')
  const system = await write(platformAdmin(), 'System password help', 'Every desk: reset password from the login page.')

  const ask = (query: string, scope = ACME, limit = 5) => local.retrieve({ query, limit, scope })

  t.test('ranked: the doc holding more of the words, and in its title, first; scores 0..1', async (t) => {
    const hits = await ask('reset password')
    t.same(
      hits.map((h) => h.document_id),
      [reset, policy],
      'both words beat one; the Globex and system docs are not in acme/support',
    )
    t.match(hits[0], { title: 'Reset your password', source: 'local', metadata: { category: 'general' } })
    for (const h of hits) t.ok(h.score > 0 && h.score <= 1, `score ${h.score} within 0..1`)
    t.ok(hits[0]!.score > hits[1]!.score, 'best first')
    t.same(
      (await ask('refund')).map((h) => h.document_id),
      [billing],
    )
    t.equal((await ask('reset password', ACME, 1)).length, 1, 'limit')
  })

  t.test('any language: accented words, and Chinese without spaces', async (t) => {
    t.same(
      (await ask('CAFÉ')).map((h) => h.document_id),
      [accents],
      'case-insensitive',
    )
    t.same(
      (await ask('café')).map((h) => h.document_id),
      [accents],
    )
    const zh = await ask('怎么退款')
    t.equal(zh[0]?.document_id, chinese, 'a word inside a sentence is found by its characters')
    t.ok(zh[0]!.score > 0 && zh[0]!.score <= 1)
  })

  t.test('scope: exactly the one asked; empty is the system scope', async (t) => {
    t.same(
      (await ask('password', GLOBEX)).map((h) => h.title),
      ['Reset your password at Globex'],
    )
    t.same(
      (await ask('password', SYSTEM)).map((h) => h.document_id),
      [system],
    )
    t.same(await ask('password', { tenant_id: 'nobody', workspace_id: 'none' }), [])
  })

  t.test('odd input never fails', async (t) => {
    const odd = [
      '"unbalanced',
      "it's",
      'reset OR',
      'AND',
      'NOT password',
      '-password',
      'password*',
      'title:password',
      'NEAR(reset password)',
      '(((',
      '!&|:<->',
      "'; drop table knowledge_docs; --",
      '\\',
      '😀 reset',
      '',
      '   ',
      'x'.repeat(5000),
      'word '.repeat(500),
      '%_%',
      '\u0301 combining',
      '１２３ ⅷ ½',
      'مرحبا ไทย İstanbul ǅ',
      'zero\u200bwidth',
      'nul\u0000byte \ud800',
      '1e5 0x1f e-mail user@example.com https://example.com/a?b=c',
    ]
    for (const q of odd) {
      const hits = await ask(q)
      t.ok(Array.isArray(hits), `query ${JSON.stringify(q.slice(0, 40))}`)
    }
    t.ok(
      (await ask('NOT password')).some((h) => h.document_id === reset),
      'operators are words, not operators',
    )
  })

  t.test('health and writes through the port', async (t) => {
    t.match(await local.health(), { healthy: true })
    const err = await local.upsertDocument({ title: 'x', content: 'y', tags: [] }).catch((e: unknown) => e)
    t.ok(err instanceof ProviderError)
    t.match(err, { provider: 'local', kind: 'unsupported' })
  })

  t.test('the orchestrator falls back to it without external providers', async (t) => {
    const res = await call(app, acme, 'POST', '/api/v1/ai/query', { query: 'how do I reset my password?' })
    t.equal(res.statusCode, 200, res.body)
    t.match(res.json(), { source: 'local', strategy: 'fallback' })
    t.equal(res.json().sources[0].document_id, reset)
  })

  t.test('a changed doc is searched as it is now; a deleted one is gone', async (t) => {
    await call(app, acme, 'PUT', `/api/knowledge-docs/${billing}`, { content: 'Statements arrive quarterly.' })
    t.same(await ask('refund'), [])
    t.same(
      (await ask('quarterly')).map((h) => h.document_id),
      [billing],
    )
    await call(app, acme, 'DELETE', `/api/knowledge-docs/${billing}`)
    t.same(await ask('quarterly'), [])
  })
})
