import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import type { AiConfig } from '../../src/config.ts'
import { ACME, agent, aiApp, call, platformAdmin } from '../helpers/app.ts'
import { sessionsStandIn } from '../helpers/conversations-stand-in.ts'
import { startLlmStandIn } from '../helpers/llm-stand-in.ts'
import { refusingUrl, startCompatibilityStandIn, startPrimaryStandIn } from '../helpers/stand-ins.ts'

const REFUND = { title: 'Refund policy', content: 'Refunds are paid within 14 days of the return reaching us.' }
const SHIPPING = { title: 'Shipping times', content: 'Parcels ship within two business days by tracked post.' }

/** The three dependencies as small real servers, and the settings pointing the service at them. */
async function world(t: Parameters<Parameters<typeof inEachStorageMode>[2]>[0]) {
  const primary = await startPrimaryStandIn({ docs: [REFUND] })
  const compat = await startCompatibilityStandIn({ docs: [SHIPPING, REFUND] })
  const llm = await startLlmStandIn()
  t.teardown(() => Promise.all([primary.close(), compat.close(), llm.close()]))
  const overrides: Partial<AiConfig> = {
    primary: primary.settings({ timeout_ms: 500 }),
    compatibility: compat.settings({ timeout_ms: 500 }),
    llm: {
      base_url: llm.url,
      api_key: llm.apiKey,
      model: 'stand-in',
      temperature: 0.2,
      max_tokens: 200,
      timeout_ms: 1000,
    },
  }
  return { primary, compat, llm, overrides }
}

const ask = async (app: Parameters<typeof call>[0], query: string, session_id?: string) => {
  const res = await call(app, agent(), 'POST', '/api/v1/ai/query', { query, ...(session_id ? { session_id } : {}) })
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`)
  return res.json()
}

inEachStorageMode(
  t,
  'the fallback order: primary → compatibility → local, answers composed by the LLM',
  async (t, mode) => {
    const { primary, compat, llm, overrides } = await world(t)
    // the question's conversation is one of the workspace (ai-query-session.routes.test.ts)
    const conv = await sessionsStandIn({ 'session-77': ACME })
    t.teardown(conv.close)
    const { app } = await aiApp(t, mode, { UPSTREAM_CONVERSATIONS: conv.url }, overrides)

    const first = await ask(app, 'when are refunds paid', 'session-77')
    t.match(first, {
      strategy: 'primary',
      source: 'primary',
      llm_used: true,
      sources: [{ title: 'Refund policy', source: 'primary' }],
    })
    t.match(first.content, /Refunds are paid within 14 days/, 'the LLM got the passage and the answer quotes it')
    t.ok(first.confidence >= 0.55 && first.confidence <= 0.95)
    const retrieve = primary.requests.find((r) => r.path.endsWith('/retrieve'))
    t.match(
      retrieve?.path,
      new RegExp(`/datasets/${primary.datasetId}/retrieve$`),
      'the configured dataset, never the session id',
    )
    t.equal(llm.requests.length, 1)

    primary.setMode('error')
    const second = await ask(app, 'how long does shipping take')
    t.match(second, { strategy: 'compatibility', source: 'compatibility', sources: [{ title: 'Shipping times' }] })

    compat.setMode('slow', { slowMs: 2000 })
    const noExternal = await call(app, agent(), 'POST', '/api/knowledge-docs', {
      title: 'Opening hours',
      content: 'The desk answers from 8 to 18 on weekdays.',
    })
    t.equal(noExternal.statusCode, 201, noExternal.body)
    const third = await ask(app, 'what are the opening hours of the desk')
    t.match(third, { strategy: 'fallback', source: 'local', sources: [{ title: 'Opening hours', source: 'local' }] })

    const human = await ask(app, 'I want a HUMAN please')
    t.match(human, { strategy: 'transfer', source: 'system', confidence: 1, sources: [] })

    const metrics = (await call(app, agent(), 'GET', '/api/v1/ai/metrics')).json()
    t.match(metrics, {
      requests: 4,
      transfers: 1,
      per_provider: { primary: { answered: 1 }, compatibility: { answered: 1 } },
    })
    t.ok(metrics.fallbacks >= 1)
    const prom = (await app.inject({ method: 'GET', url: '/metrics' })).body
    t.match(prom, /ai_requests_total\{[^}]*provider="primary",outcome="failure"[^}]*\} [1-9]/)
    t.match(prom, /ai_request_duration_seconds_bucket\{[^}]*provider="query"/)
    t.match(prom, /ai_llm_tokens_total\{[^}]*kind="prompt"[^}]*\} [1-9]/)
  },
)

inEachStorageMode(t, 'the breaker: opens after 5 failures, skips the provider, half-opens, resets', async (t, mode) => {
  const { primary, overrides } = await world(t)
  const { app, svc } = await aiApp(
    t,
    mode,
    {},
    { ...overrides, breaker: { enabled: true, max_failures: 5, reset_timeout_ms: 60_000, half_open_max_requests: 3 } },
  )
  primary.setMode('error')
  for (let i = 0; i < 5; i++)
    t.equal((await ask(app, 'refunds')).strategy, 'compatibility', `failure ${i + 1}: answered anyway`)
  const before = primary.requests.length
  const skipped = await ask(app, 'refunds')
  t.equal(skipped.strategy, 'compatibility')
  t.equal(primary.requests.length, before, 'open: the primary is not called at all')
  const status = (await call(app, agent(), 'GET', '/api/v1/ai/status')).json()
  t.match(
    status.providers.find((p: any) => p.id === 'primary'),
    { breaker: { state: 'open', failure_count: 5 } },
  )
  t.match(
    (await app.inject({ method: 'GET', url: '/metrics' })).body,
    /ai_circuit_breaker_state\{[^}]*breaker="primary"[^}]*\} 2/,
  )

  primary.setMode('good')
  const reset = await call(app, platformAdmin(), 'POST', '/api/v1/ai/circuit-breaker/reset?breaker=primary')
  t.equal(reset.statusCode, 200, reset.body)
  t.match(await svc.runtimes.system.breakers.primary.snapshot(), { state: 'closed', failure_count: 0 })
  t.equal((await ask(app, 'refunds')).strategy, 'primary', 'closed again: the primary answers')
})

inEachStorageMode(t, 'without an LLM, or when it fails: the best passage, strategy fallback', async (t, mode) => {
  const { llm, overrides } = await world(t)
  const noLlm = await aiApp(t, mode, {}, { ...overrides, llm: { ...overrides.llm!, base_url: '' } })
  t.match(await ask(noLlm.app, 'refunds paid'), {
    strategy: 'fallback',
    source: 'primary',
    llm_used: false,
    content: REFUND.content,
  })
  llm.setMode('garbage')
  const { app } = await aiApp(t, mode, {}, overrides)
  t.match(await ask(app, 'refunds paid'), {
    strategy: 'fallback',
    source: 'primary',
    llm_used: false,
    content: REFUND.content,
  })
  const nothing = await ask(app, 'zzz qqq xxyyzz')
  t.match(nothing, { strategy: 'fallback', source: 'none', confidence: 0.3 })
})

inEachStorageMode(t, 'switches and direct calls: disable/enable, upload 200/409/502/504', async (t, mode) => {
  const { primary, compat, overrides } = await world(t)
  const { app } = await aiApp(
    t,
    mode,
    {},
    { ...overrides, compatibility: { ...overrides.compatibility!, base_url: await refusingUrl() } },
  )
  const refused = await call(app, agent(), 'PUT', '/api/v1/ai/knowledge-provider/disable?provider=primary')
  t.equal(refused.statusCode, 403, "a tenant's agent does not switch a provider off for every tenant")
  t.equal((await call(app, agent(), 'POST', '/api/v1/ai/circuit-breaker/reset')).statusCode, 403)
  const off = await call(app, platformAdmin(), 'PUT', '/api/v1/ai/knowledge-provider/disable?provider=primary')
  t.equal(off.statusCode, 200, off.body)
  const answered = await ask(app, 'refunds paid')
  t.equal(answered.source, 'none', 'primary switched off and compatibility refusing connections: no passage')
  const status = (await call(app, agent(), 'GET', '/api/v1/ai/status')).json()
  t.match(
    status.providers.find((p: any) => p.id === 'primary'),
    { configured: true, enabled: false },
  )
  t.same(status.fallback.order, ['compatibility', 'local'])

  const upload = (payload: object) => call(app, platformAdmin(), 'POST', '/api/v1/ai/knowledge/upload', payload)
  const doc = { title: 'Warranty', content: 'Two years on every device.', tags: ['policy'] }
  t.equal((await upload(doc)).statusCode, 502, 'the active provider (compatibility) refuses connections: 502')
  await call(app, platformAdmin(), 'PUT', '/api/v1/ai/knowledge-provider/disable')
  t.equal((await upload(doc)).statusCode, 409, 'none enabled: a setting to change, 409')
  await call(app, platformAdmin(), 'PUT', '/api/v1/ai/knowledge-provider/enable?provider=primary')
  const tenants = await call(app, agent(), 'POST', '/api/v1/ai/knowledge/upload', doc)
  t.equal(tenants.statusCode, 403, "a tenant's upload into the provider every tenant is answered from")
  t.equal(tenants.json().code, 'AI_PROVIDER_SHARED')
  const ok = await upload(doc)
  t.equal(ok.statusCode, 200, ok.body)
  t.match(ok.json(), { success: true, data: { provider: 'primary', external_id: String } })
  t.ok(
    [...primary.docs.values()].some((d) => d.title === 'Warranty'),
    'the document reached the provider',
  )
  const sync = () => call(app, platformAdmin(), 'POST', '/api/v1/ai/knowledge/sync')
  await call(app, platformAdmin(), 'POST', '/api/knowledge-docs', {
    title: 'Returns',
    content: 'Returns within 30 days.',
  })
  const synced = await sync()
  t.equal(synced.statusCode, 200, synced.body)
  t.match(synced.json(), { success: true, data: { provider: 'primary', synced: 1, failed: 0 } })
  primary.setMode('slow', { slowMs: 2000 })
  t.equal((await upload(doc)).statusCode, 504, 'a provider slower than its timeout: 504')
  t.equal((await sync()).statusCode, 504, 'a sync whose every doc timed out: 504')
  primary.setMode('error')
  t.equal((await sync()).statusCode, 502, 'a sync the provider refused: 502')
  void compat
})
