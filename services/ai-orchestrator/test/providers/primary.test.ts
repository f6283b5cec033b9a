import { NO_SCOPE } from '@switchboard/platform'
import t, { type Test } from 'tap'
import { ProviderError } from '../../src/providers/port.ts'
import { createPrimaryProvider } from '../../src/providers/primary.ts'
import { refusingUrl, startPrimaryStandIn } from '../helpers/stand-ins.ts'

const DOCS = [
  { id: 'd-reset', title: 'Reset your password', content: 'Open settings and choose reset password to get an email.' },
  { id: 'd-billing', title: 'Billing cycle', content: 'Invoices are sent on the first day of every month.' },
  { id: 'd-email', title: 'Change email', content: 'Settings let you change the email of your account.' },
]
const ask = (query: string, limit = 5) => ({ query, limit, scope: { tenant_id: 't1', workspace_id: 'w1' } })

async function failure(t: Test, promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => t.fail('expected a ProviderError') as never,
    (e: unknown) => e,
  )
  t.type(err, ProviderError)
  t.equal((err as ProviderError).provider, 'primary')
  return err as ProviderError
}

t.test('retrieve: the configured dataset, the bearer key, passages mapped and ranked', async (t) => {
  const standIn = await startPrimaryStandIn({ docs: DOCS })
  t.teardown(() => standIn.close())
  const provider = createPrimaryProvider(standIn.settings({ top_k: 4, score_threshold: 0.25, reranking_enable: true }))
  t.equal(provider.id, 'primary')

  const passages = await provider.retrieve(ask('how do I reset my password'))
  t.ok(passages.length >= 1)
  t.match(passages[0], {
    document_id: 'd-reset',
    title: 'Reset your password',
    content: DOCS[0]?.content,
    source: 'primary',
    metadata: { segment_id: 'd-reset-seg-1' },
  })
  for (let i = 1; i < passages.length; i++) t.ok(passages[i - 1]!.score >= passages[i]!.score, 'best first')

  const [req] = standIn.requests
  t.equal(req?.method, 'POST')
  t.equal(req?.path, `/v1/datasets/${standIn.datasetId}/retrieve`, 'the configured dataset, whatever the scope')
  t.equal(req?.headers.authorization, `Bearer ${standIn.apiKey}`)
  t.match(req?.body, {
    query: 'how do I reset my password',
    retrieval_model: { search_method: 'semantic_search', reranking_enable: true, top_k: 4, score_threshold: 0.25 },
  })
})

t.test('retrieve: no more passages than asked, scores clamped into 0..1', async (t) => {
  const standIn = await startPrimaryStandIn({ docs: DOCS, scoreScale: 7 })
  t.teardown(() => standIn.close())
  const provider = createPrimaryProvider(standIn.settings())
  const one = await provider.retrieve(ask('settings email password', 1))
  t.equal(one.length, 1)
  t.match(standIn.requests[0]?.body, { retrieval_model: { top_k: 1 } }, 'top_k is the smaller of limit and top_k')
  const all = await provider.retrieve(ask('settings email password', 10))
  t.equal(all.length, 2, 'the two documents that match')
  for (const p of all) t.ok(p.score >= 0 && p.score <= 1, `score ${p.score} within 0..1`)
  t.equal(all[0]?.score, 1, 'a score above 1 is 1')
  t.same(await provider.retrieve(ask('nothing matches this', 5)), [], 'no records: no passages')
})

t.test('retrieve: failures by kind', async (t) => {
  const standIn = await startPrimaryStandIn({ docs: DOCS, slowMs: 2000 })
  t.teardown(() => standIn.close())
  const provider = createPrimaryProvider(standIn.settings({ timeout_ms: 150 }))

  standIn.setMode('slow')
  const started = Date.now()
  t.equal((await failure(t, provider.retrieve(ask('password')))).kind, 'timeout')
  t.ok(Date.now() - started < 1000, 'bounded by timeout_ms')

  standIn.setMode('error')
  const http = await failure(t, provider.retrieve(ask('password')))
  t.equal(http.kind, 'http')
  t.equal(http.status, 500)

  standIn.setMode('garbage')
  t.equal((await failure(t, provider.retrieve(ask('password')))).kind, 'invalid', 'not JSON')
  standIn.setMode('shape')
  t.equal((await failure(t, provider.retrieve(ask('password')))).kind, 'invalid', 'no records[]')
  standIn.setMode('drop')
  t.equal((await failure(t, provider.retrieve(ask('password')))).kind, 'connection', 'connection closed')

  standIn.setMode('good')
  const wrongKey = createPrimaryProvider(standIn.settings({ api_key: 'wrong' }))
  const denied = await failure(t, wrongKey.retrieve(ask('password')))
  t.equal(denied.kind, 'http')
  t.equal(denied.status, 401)
  const otherDataset = createPrimaryProvider(standIn.settings({ dataset_id: 'nope' }))
  t.equal((await failure(t, otherDataset.retrieve(ask('password')))).status, 404)

  const refused = createPrimaryProvider(standIn.settings({ base_url: await refusingUrl('/v1') }))
  t.equal((await failure(t, refused.retrieve(ask('password')))).kind, 'connection')

  const before = standIn.requests.length
  for (const missing of [{ base_url: '' }, { dataset_id: '' }]) {
    const unconfigured = createPrimaryProvider(standIn.settings(missing))
    t.equal((await failure(t, unconfigured.retrieve(ask('password')))).kind, 'unavailable')
    t.equal((await failure(t, unconfigured.upsertDocument({ title: 'x', content: 'y', tags: [] }))).kind, 'unavailable')
  }
  t.equal(standIn.requests.length, before, 'nothing sent when not configured')
})

t.test('health: GET /datasets/:id', async (t) => {
  const standIn = await startPrimaryStandIn()
  t.teardown(() => standIn.close())
  const healthy = await createPrimaryProvider(standIn.settings()).health()
  t.equal(healthy.healthy, true)
  t.ok(healthy.latency_ms >= 0)
  t.match(standIn.requests.at(-1), { method: 'GET', path: `/v1/datasets/${standIn.datasetId}` })

  const wrongKey = await createPrimaryProvider(standIn.settings({ api_key: 'wrong' })).health()
  t.match(wrongKey, { healthy: false, error: /401/ })
  standIn.setMode('shape')
  t.match(await createPrimaryProvider(standIn.settings()).health(), { healthy: false, error: /dataset id/ })
  standIn.setMode('error')
  t.match(await createPrimaryProvider(standIn.settings()).health(), { healthy: false, error: /500/ })
  const refused = await createPrimaryProvider(standIn.settings({ base_url: await refusingUrl('/v1') })).health()
  t.equal(refused.healthy, false)
  t.match(await createPrimaryProvider(standIn.settings({ base_url: '' })).health(), { healthy: false })
})

t.test('documents: create, update by external id, re-create when gone, delete', async (t) => {
  const standIn = await startPrimaryStandIn()
  t.teardown(() => standIn.close())
  const provider = createPrimaryProvider(standIn.settings())

  const { external_id } = await provider.upsertDocument({ title: 'Returns', content: 'Within 30 days.', tags: ['a'] })
  t.match(standIn.docs.get(external_id), { title: 'Returns', content: 'Within 30 days.' })
  t.match(standIn.requests.at(-1), {
    method: 'POST',
    path: `/v1/datasets/${standIn.datasetId}/document/create-by-text`,
    body: {
      name: 'Returns',
      text: 'Within 30 days.',
      indexing_technique: 'high_quality',
      process_rule: { mode: 'automatic' },
    },
  })

  const updated = await provider.upsertDocument({ title: 'Returns', content: 'Within 60 days.', tags: [], external_id })
  t.equal(updated.external_id, external_id, 'same document')
  t.equal(standIn.docs.get(external_id)?.content, 'Within 60 days.')
  t.match(standIn.requests.at(-1), {
    path: `/v1/datasets/${standIn.datasetId}/documents/${external_id}/update-by-text`,
    body: { name: 'Returns', text: 'Within 60 days.' },
  })

  const again = await provider.upsertDocument({ title: 'Gone', content: 'Made again.', tags: [], external_id: 'lost' })
  t.not(again.external_id, 'lost', 'a document removed in the provider is created again')
  t.equal(standIn.docs.get(again.external_id)?.title, 'Gone')

  await provider.deleteDocument?.(external_id)
  t.notOk(standIn.docs.has(external_id))
  t.match(standIn.requests.at(-1), {
    method: 'DELETE',
    path: `/v1/datasets/${standIn.datasetId}/documents/${external_id}`,
  })
  await provider.deleteDocument?.(external_id)
  t.pass('deleting a document already gone succeeds')

  standIn.setMode('error')
  t.equal((await failure(t, provider.upsertDocument({ title: 'x', content: 'y', tags: [] }))).status, 500)
  t.equal((await failure(t, provider.deleteDocument?.('x') ?? Promise.resolve())).kind, 'http')
  standIn.setMode('shape')
  t.equal((await failure(t, provider.upsertDocument({ title: 'x', content: 'y', tags: [] }))).kind, 'invalid')
})

t.test('the request scope never picks the dataset', async (t) => {
  const standIn = await startPrimaryStandIn({ docs: DOCS })
  t.teardown(() => standIn.close())
  const provider = createPrimaryProvider(standIn.settings())
  await provider.retrieve({ query: 'password', limit: 3, scope: NO_SCOPE })
  await provider.retrieve({ query: 'password', limit: 3, scope: { tenant_id: 'session-123', workspace_id: 'x' } })
  t.same(
    standIn.requests.map((r) => r.path),
    [`/v1/datasets/${standIn.datasetId}/retrieve`, `/v1/datasets/${standIn.datasetId}/retrieve`],
  )
})
