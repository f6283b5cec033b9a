import t, { type Test } from 'tap'
import { createCompatibilityProvider } from '../../src/providers/compatibility.ts'
import { ProviderError } from '../../src/providers/port.ts'
import { refusingUrl, startCompatibilityStandIn } from '../helpers/stand-ins.ts'

const DOCS = [
  {
    id: 'c-ship',
    title: 'Shipping times',
    content: 'Each order will ship within two business days.',
    tags: ['shipping'],
  },
  { id: 'c-track', title: 'Tracking', content: 'Every order gets a tracking link by email.' },
]
const ask = (query: string, limit = 5) => ({ query, limit, scope: { tenant_id: 't1', workspace_id: 'w1' } })

async function failure(t: Test, promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => t.fail('expected a ProviderError') as never,
    (e: unknown) => e,
  )
  t.type(err, ProviderError)
  t.equal((err as ProviderError).provider, 'compatibility')
  return err as ProviderError
}

t.test('search: headers, body, passages mapped', async (t) => {
  const standIn = await startCompatibilityStandIn({ docs: DOCS })
  t.teardown(() => standIn.close())
  const provider = createCompatibilityProvider(standIn.settings({ tenant_id: 'tenant-9', threshold: 0.3, limit: 4 }))
  t.equal(provider.id, 'compatibility')
  t.equal(provider.deleteDocument, undefined, 'the API cannot delete documents')

  const passages = await provider.retrieve(ask('order ship'))
  t.match(passages[0], {
    document_id: 'c-ship',
    title: 'Shipping times',
    content: DOCS[0]?.content,
    source: 'compatibility',
    highlights: ['order', 'ship'],
    chunk_index: 0,
    metadata: { origin: 'stand-in' },
  })
  for (const p of passages) t.ok(p.score > 0 && p.score <= 1)
  const [req] = standIn.requests
  t.match(req, { method: 'POST', path: '/api/v1/knowledge/search' })
  t.equal(req?.headers['x-api-key'], standIn.apiKey)
  t.equal(req?.headers['x-tenant-id'], 'tenant-9')
  t.same(req?.body, {
    query: 'order ship',
    kb_id: standIn.kbId,
    limit: 4,
    threshold: 0.3,
    strategy: 'hybrid',
  })

  const noTenant = createCompatibilityProvider(standIn.settings())
  t.equal((await noTenant.retrieve(ask('tracking link', 1))).length, 1, 'limited to the request')
  t.equal(standIn.requests.at(-1)?.headers['x-tenant-id'], undefined, 'no tenant header without a tenant')
  t.match(standIn.requests.at(-1)?.body, { limit: 1 })
})

t.test('search: scores clamped, nothing found', async (t) => {
  const standIn = await startCompatibilityStandIn({ docs: DOCS, scoreScale: 3 })
  t.teardown(() => standIn.close())
  const provider = createCompatibilityProvider(standIn.settings())
  const passages = await provider.retrieve(ask('order'))
  t.equal(passages.length, 2)
  t.same(
    passages.map((p) => p.score),
    [1, 1],
  )
  t.same(await provider.retrieve(ask('unrelated words entirely')), [])
})

t.test('failures by kind', async (t) => {
  const standIn = await startCompatibilityStandIn({ docs: DOCS, slowMs: 2000 })
  t.teardown(() => standIn.close())
  const provider = createCompatibilityProvider(standIn.settings({ timeout_ms: 150 }))

  standIn.setMode('slow')
  t.equal((await failure(t, provider.retrieve(ask('order')))).kind, 'timeout')
  standIn.setMode('error')
  t.match(await failure(t, provider.retrieve(ask('order'))), { kind: 'http', status: 500 })
  standIn.setMode('garbage')
  t.equal((await failure(t, provider.retrieve(ask('order')))).kind, 'invalid')
  standIn.setMode('shape')
  t.equal((await failure(t, provider.retrieve(ask('order')))).kind, 'invalid')
  standIn.setMode('good')

  standIn.refuseAll = true
  const refused = await failure(t, provider.retrieve(ask('order')))
  t.equal(refused.kind, 'http', 'success: false is the provider refusing')
  t.match(refused.message, /success: false/)
  standIn.refuseAll = false

  t.match(await failure(t, createCompatibilityProvider(standIn.settings({ api_key: 'no' })).retrieve(ask('x'))), {
    kind: 'http',
    status: 401,
  })
  const otherKb = createCompatibilityProvider(standIn.settings({ knowledge_base_id: 'kb-other' }))
  t.match(await failure(t, otherKb.retrieve(ask('order'))), { kind: 'http', status: 404 })

  const down = createCompatibilityProvider(standIn.settings({ base_url: await refusingUrl() }))
  t.equal((await failure(t, down.retrieve(ask('order')))).kind, 'connection')
  const before = standIn.requests.length
  for (const missing of [{ base_url: '' }, { knowledge_base_id: '' }]) {
    const unconfigured = createCompatibilityProvider(standIn.settings(missing))
    t.equal((await failure(t, unconfigured.retrieve(ask('order')))).kind, 'unavailable')
  }
  t.equal(standIn.requests.length, before, 'nothing sent when not configured')
})

t.test('retries: connection errors and 5xx only, within the timeout budget', async (t) => {
  const standIn = await startCompatibilityStandIn({ docs: DOCS, slowMs: 2000 })
  t.teardown(() => standIn.close())
  const provider = createCompatibilityProvider(standIn.settings({ max_retries: 2, timeout_ms: 2000 }))
  const count = async (fn: () => Promise<unknown>) => {
    const before = standIn.requests.length
    await fn().catch(() => {})
    return standIn.requests.length - before
  }

  standIn.nextModes('error', 'drop')
  t.equal((await provider.retrieve(ask('order'))).length, 2, 'a 500 then a dropped connection, then the answer')
  t.equal(standIn.requests.length, 3)

  standIn.nextModes('error', 'error', 'error')
  t.equal(await count(() => provider.retrieve(ask('order'))), 3, 'one try and max_retries more, then the error')

  t.equal(
    await count(() =>
      createCompatibilityProvider(standIn.settings({ api_key: 'no', max_retries: 2 })).retrieve(ask('x')),
    ),
    1,
    '4xx: not repeated',
  )

  standIn.refuseAll = true
  t.equal(await count(() => provider.retrieve(ask('order'))), 1, 'success: false is not repeated')
  standIn.refuseAll = false

  standIn.setMode('garbage')
  t.equal(await count(() => provider.retrieve(ask('order'))), 1, 'an invalid answer is not repeated')

  const quick = createCompatibilityProvider(standIn.settings({ max_retries: 3, timeout_ms: 150 }))
  standIn.setMode('slow')
  t.equal(await count(() => quick.retrieve(ask('order'))), 1, 'a timeout is not repeated: the budget is spent')

  standIn.setMode('error')
  const budget = createCompatibilityProvider(standIn.settings({ max_retries: 10, timeout_ms: 200 }))
  const before = standIn.requests.length
  const started = Date.now()
  const err = await failure(t, budget.retrieve(ask('order')))
  t.equal(err.kind, 'http')
  t.ok(Date.now() - started < 400, 'retries stop within the timeout budget')
  t.ok(standIn.requests.length - before < 11, 'fewer than 1 + max_retries tries')

  const down = createCompatibilityProvider(standIn.settings({ base_url: await refusingUrl(), max_retries: 2 }))
  t.equal((await failure(t, down.retrieve(ask('order')))).kind, 'connection', 'refused every time')
})

t.test('health: GET /api/v1/health', async (t) => {
  const standIn = await startCompatibilityStandIn()
  t.teardown(() => standIn.close())
  t.match(await createCompatibilityProvider(standIn.settings({ tenant_id: 'x' })).health(), { healthy: true })
  t.match(standIn.requests.at(-1), { method: 'GET', path: '/api/v1/health', headers: { 'x-tenant-id': 'x' } })
  standIn.setMode('error')
  t.match(await createCompatibilityProvider(standIn.settings()).health(), { healthy: false, error: /500/ })
  standIn.setMode('garbage')
  t.match(await createCompatibilityProvider(standIn.settings()).health(), { healthy: false })
  const down = await createCompatibilityProvider(standIn.settings({ base_url: await refusingUrl() })).health()
  t.equal(down.healthy, false)
  t.match(await createCompatibilityProvider(standIn.settings({ base_url: '' })).health(), { healthy: false })
})

t.test('upload: a text document into the knowledge base', async (t) => {
  const standIn = await startCompatibilityStandIn()
  t.teardown(() => standIn.close())
  const provider = createCompatibilityProvider(standIn.settings())
  const { external_id } = await provider.upsertDocument({ title: 'Warranty', content: 'Two years.', tags: ['legal'] })
  t.match(standIn.docs.get(external_id), { title: 'Warranty', content: 'Two years.', tags: ['legal'] })
  t.match(standIn.requests.at(-1), {
    method: 'POST',
    path: `/api/v1/knowledge/${standIn.kbId}/documents`,
    body: { type: 'text', title: 'Warranty', content: 'Two years.', tags: ['legal'] },
  })
  const again = await provider.upsertDocument({ title: 'Warranty', content: 'Three.', tags: [], external_id })
  t.not(again.external_id, external_id, 'no update in this API: uploaded again')

  standIn.setMode('shape')
  t.equal((await failure(t, provider.upsertDocument({ title: 'x', content: 'y', tags: [] }))).kind, 'invalid')
  standIn.setMode('error')
  t.match(await failure(t, provider.upsertDocument({ title: 'x', content: 'y', tags: [] })), {
    kind: 'http',
    status: 500,
  })
})
