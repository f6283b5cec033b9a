import { AiEvents } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { AI_PROJECTION } from '../../src/consumers/ai.consumer.ts'
import { ACME, applied, as, platformAdmin, publish, statisticsApp } from '../helpers/app.ts'

const answer = (n: number, provider: string, strategy: string, answered_at = new Date().toISOString()) => ({
  query_id: `q-${n}`,
  provider,
  strategy,
  duration_ms: 12.5,
  session_id: null,
  llm_used: strategy !== 'fallback' && strategy !== 'transfer',
  answered_at,
})

inEachStorageMode(t, 'ai.query.answered moves DailyStats AI counters on the day of the answer', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  const answers = [
    answer(1, 'primary', 'primary'),
    answer(2, 'compatibility', 'compatibility'),
    answer(3, 'compatibility', 'fallback'), // compatibility passages without the LLM
    answer(4, 'local', 'fallback'),
    answer(5, 'none', 'transfer'),
    answer(6, 'primary', 'primary', '2026-01-02T10:00:00.000Z'),
  ]
  let last = ''
  for (const a of answers) last = (await publish(svc, AiEvents.queryAnswered, a, ACME)).id
  await applied(svc, AI_PROJECTION, last)
  const today = new Date().toISOString().slice(0, 10)
  const row = await svc.db.selectFrom('daily_stats').selectAll().where('date', '=', today).executeTakeFirstOrThrow()
  t.match(row, { ai_usage_count: 5, knowledge_provider_usage_count: 3, compat_provider_usage_count: 2 })
  const other = await svc.db
    .selectFrom('daily_stats')
    .selectAll()
    .where('date', '=', '2026-01-02')
    .executeTakeFirstOrThrow()
  t.match(other, { ai_usage_count: 1, knowledge_provider_usage_count: 1, compat_provider_usage_count: 0 })
  const dashboard = await app.inject({
    method: 'GET',
    url: '/api/statistics/dashboard',
    headers: await as(platformAdmin()),
  })
  t.match(dashboard.json(), { ai_usage_today: 5, knowledge_provider_usage_today: 3, compat_provider_usage_today: 2 })
})
