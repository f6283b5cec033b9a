// The two per-day series beside the spec's time range: SLA violations (scoped, by violated_at, UTC days from the
// aggregates or a zone's days from the raw rows) and the AI counters (scoped, ai_days; UTC days only), over the
// definitions world on both storage engines.
import { AiEvents } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { AI_PROJECTION } from '../../src/consumers/ai.consumer.ts'
import { ACME, applied, as, GLOBEX, platformAdmin, publish, statisticsApp, supervisor } from '../helpers/app.ts'
import { at, D0, D1, D2, publishWorld } from '../helpers/world.ts'

const answer = (n: number, provider: string, strategy: string, answered_at: string) => ({
  query_id: `q-${n}`,
  provider,
  strategy,
  duration_ms: 10,
  session_id: null,
  llm_used: strategy === 'primary',
  answered_at,
})

inEachStorageMode(t, 'statistics day series', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  await publishWorld(svc)
  let last = ''
  for (const [n, provider, strategy, when] of [
    [1, 'primary', 'primary', at(0, '00:01:00')],
    [2, 'compatibility', 'compatibility', at(0, '00:02:00')],
    [3, 'none', 'transfer', at(0, '00:03:00')],
    [4, 'primary', 'primary', at(1, '12:00:00')],
    [5, 'primary', 'primary', at(0, '08:00:00')],
  ] as const) {
    const scope = n === 5 ? GLOBEX : ACME
    last = (await publish(svc, AiEvents.queryAnswered, answer(n, provider, strategy, when), scope)).id
  }
  await applied(svc, AI_PROJECTION, last)
  const h = {
    acme: await as(supervisor()),
    globex: await as(supervisor({ ...GLOBEX, user_id: 'sup-g' })),
    all: await as(platformAdmin()),
  }
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, body: res.json() }
  }
  const range = `start_date=${D2}&end_date=${D0}`

  t.test('sla-violations: one row per day, by violated_at, within the scope', async (t) => {
    // v1 (acme, D0 00:15; announced twice, one violation), vB (globex, D1 23:00)
    const acme = await get(`/api/statistics/sla-violations?${range}`, h.acme)
    t.equal(acme.status, 200)
    t.same(acme.body, [
      { date: D2, sla_violations: 0 },
      { date: D1, sla_violations: 0 },
      { date: D0, sla_violations: 1 },
    ])
    t.same((await get(`/api/statistics/sla-violations?${range}`, h.globex)).body, [
      { date: D2, sla_violations: 0 },
      { date: D1, sla_violations: 1 },
      { date: D0, sla_violations: 0 },
    ])
    t.same((await get(`/api/statistics/sla-violations?${range}`, h.all)).body, [
      { date: D2, sla_violations: 0 },
      { date: D1, sla_violations: 1 },
      { date: D0, sla_violations: 1 },
    ])
  })

  t.test("sla-violations in another zone: the zone's days, from the raw rows", async (t) => {
    // Asia/Shanghai is UTC+8 all year: D1 23:00Z and D0 00:15Z both fall on D0 there
    const res = await get(`/api/statistics/sla-violations?${range}&tz=Asia/Shanghai`, h.all)
    t.equal(res.status, 200)
    t.same(res.body, [
      { date: D2, sla_violations: 0 },
      { date: D1, sla_violations: 0 },
      { date: D0, sla_violations: 2 },
    ])
    t.match((await get(`/api/statistics/sla-violations?${range}&tz=Mars/Base`, h.all)).body, {
      code: 'VALIDATION_FAILED',
      message: /^querystring\.tz: /,
    })
    t.match((await get(`/api/statistics/sla-violations?start_date=${D0}&end_date=${D2}`, h.all)).body, {
      code: 'STATISTICS_INVALID_RANGE',
    })
  })

  t.test('ai-usage: the AI counters per UTC day, within the scope', async (t) => {
    const all = await get(`/api/statistics/ai-usage?${range}`, h.all)
    t.equal(all.status, 200)
    const zero = { ai_usage_count: 0, knowledge_provider_usage_count: 0, compat_provider_usage_count: 0 }
    t.same(all.body, [
      { date: D2, ...zero },
      { date: D1, ai_usage_count: 1, knowledge_provider_usage_count: 1, compat_provider_usage_count: 0 },
      { date: D0, ai_usage_count: 4, knowledge_provider_usage_count: 3, compat_provider_usage_count: 1 },
    ])
    t.same((await get(`/api/statistics/ai-usage?${range}`, h.acme)).body, [
      { date: D2, ...zero },
      { date: D1, ai_usage_count: 1, knowledge_provider_usage_count: 1, compat_provider_usage_count: 0 },
      { date: D0, ai_usage_count: 3, knowledge_provider_usage_count: 2, compat_provider_usage_count: 1 },
    ])
    t.same((await get(`/api/statistics/ai-usage?${range}`, h.globex)).body, [
      { date: D2, ...zero },
      { date: D1, ...zero },
      { date: D0, ai_usage_count: 1, knowledge_provider_usage_count: 1, compat_provider_usage_count: 0 },
    ])
    t.equal((await get(`/api/statistics/ai-usage?${range}&tz=UTC`, h.all)).status, 200)
    const zoned = await get(`/api/statistics/ai-usage?${range}&tz=Asia/Shanghai`, h.all)
    t.equal(zoned.status, 400)
    t.match(zoned.body, { code: 'VALIDATION_FAILED', message: /^querystring\.tz: .*UTC days/ })
    t.match((await get(`/api/statistics/ai-usage?start_date=${D0}`, h.all)).body, {
      code: 'VALIDATION_FAILED',
      message: /end_date/,
    })
  })
})
