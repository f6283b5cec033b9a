// AI answers counted per scope (ai_days, migration 0004) beside DailyStats' system-level counters: each tenant's
// administrator reads its own, the platform operator (no tenant) the sum; a rebuild counts them again from the events.
import { AiEvents } from '@switchboard/contracts'
import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { rebuildProjections } from '../../src/commands/rebuild.commands.ts'
import { AI_PROJECTION } from '../../src/consumers/ai.consumer.ts'
import { ACME, applied, as, GLOBEX, platformAdmin, publish, statisticsApp, supervisor } from '../helpers/app.ts'

const answer = (n: number, provider: string, strategy: string, answered_at = new Date().toISOString()) => ({
  query_id: `q-${n}`,
  provider,
  strategy,
  duration_ms: 12.5,
  session_id: null,
  llm_used: strategy !== 'fallback' && strategy !== 'transfer',
  answered_at,
})

const counts = (ai: number, knowledge: number, compat: number) => ({
  ai_usage_count: ai,
  knowledge_provider_usage_count: knowledge,
  compat_provider_usage_count: compat,
})
const today = (ai: number, knowledge: number, compat: number) => ({
  ai_usage_today: ai,
  knowledge_provider_usage_today: knowledge,
  compat_provider_usage_today: compat,
})

inEachStorageMode(t, 'AI usage per scope: each tenant its own, the operator the sum', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  const day = new Date().toISOString().slice(0, 10)
  const published: Array<[ReturnType<typeof answer>, typeof ACME]> = [
    [answer(1, 'primary', 'primary'), ACME],
    [answer(2, 'compatibility', 'compatibility'), ACME],
    [answer(3, 'compatibility', 'fallback'), ACME], // compatibility passages without the LLM
    [answer(4, 'local', 'fallback'), ACME],
    [answer(5, 'none', 'transfer'), ACME],
    [answer(6, 'primary', 'primary', '2026-01-02T10:00:00.000Z'), ACME],
    [answer(7, 'primary', 'primary'), GLOBEX],
    [answer(8, 'none', 'transfer'), GLOBEX],
  ]
  let last = ''
  for (const [a, scope] of published) last = (await publish(svc, AiEvents.queryAnswered, a, scope)).id
  await applied(svc, AI_PROJECTION, last)

  const h = {
    acme: await as(supervisor()),
    // a tenant's administrator bound to no workspace reads the whole tenant
    acmeTenant: await as(testPrincipal({ user_id: 'ta', tenant_id: 'acme', workspace_id: '' })),
    globex: await as(supervisor({ ...GLOBEX, user_id: 'sup-g' })),
    all: await as(platformAdmin()),
  }
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'GET', url, headers })
    t.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const series = (headers: Record<string, string>) =>
    get(`/api/statistics/ai-usage?start_date=2026-01-02&end_date=2026-01-02`, headers)
  const todays = (headers: Record<string, string>) =>
    get(`/api/statistics/ai-usage?start_date=${day}&end_date=${day}`, headers)

  const check = async (label: string) => {
    t.match(await get('/api/statistics/dashboard', h.acme), today(5, 3, 2), `${label}: acme's dashboard`)
    t.match(await get('/api/statistics/dashboard', h.acmeTenant), today(5, 3, 2), `${label}: acme's tenant admin`)
    t.match(await get('/api/statistics/dashboard', h.globex), today(2, 1, 0), `${label}: globex's dashboard`)
    t.match(await get('/api/statistics/dashboard', h.all), today(7, 4, 2), `${label}: the operator's, the sum`)
    t.same(await todays(h.acme), [{ date: day, ...counts(5, 3, 2) }], `${label}: acme's series`)
    t.same(await todays(h.globex), [{ date: day, ...counts(2, 1, 0) }], `${label}: globex's series`)
    t.same(await todays(h.all), [{ date: day, ...counts(7, 4, 2) }], `${label}: the operator's series`)
    t.same(await series(h.acme), [{ date: '2026-01-02', ...counts(1, 1, 0) }], `${label}: on the day answered`)
    t.same(await series(h.globex), [{ date: '2026-01-02', ...counts(0, 0, 0) }], `${label}: not another's day`)
    // DailyStats stays system level: every tenant's answers of the day
    const daily = await svc.db.selectFrom('daily_stats').selectAll().where('date', '=', day).executeTakeFirstOrThrow()
    t.match(daily, counts(7, 4, 2), `${label}: DailyStats`)
  }
  await check('live')

  // counts kept before migration 0004 are platform-wide history: the operator adds them up, no tenant sees them
  await svc.db
    .insertInto('ai_days')
    .values({ tenant_id: '', workspace_id: '', day, ...counts(10, 0, 0) })
    .execute()
  t.match(await get('/api/statistics/dashboard', h.all), today(17, 4, 2), 'history: the operator')
  t.match(await get('/api/statistics/dashboard', h.acme), today(5, 3, 2), 'history: not a tenant')

  // a rebuild empties ai_days (history included) and counts each answer again under its event's scope
  const [report] = await rebuildProjections(svc, ['ai'])
  t.match(report, { projection: AI_PROJECTION, events: published.length, failed: [] })
  await check('rebuilt')
})
