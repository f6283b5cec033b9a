import { AiEvents } from '@switchboard/contracts'
import type { ConsumerDef } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import { dayOf } from '../domain/dates.ts'
import { payload } from './payload.ts'

export const AI_PROJECTION = 'statistics-ai'

/** Where an answer's passages came from that counts as a knowledge provider's use. */
const EXTERNAL = new Set(['primary', 'compatibility'])

/**
 * ai-orchestrator's answers → DailyStats' AI counters (spec: IncrementAIUsage, IncrementKnowledgeProvider,
 * IncrementCompatProvider), on the day the answer was given: `ai_usage_count` for every answer (a hand-over
 * included: the AI handled the question), `knowledge_provider_usage_count` when an external provider's passages
 * were behind it, `compat_provider_usage_count` when that provider was the compatibility one. Applied once (inbox).
 */
export const aiProjection: ConsumerDef<StatisticsService> = {
  durable: AI_PROJECTION,
  stream: 'AI',
  subjects: ['ai.>'],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  async handle(_svc, { envelope }, tx) {
    if (envelope.type !== AiEvents.queryAnswered.type) return
    const a = payload(AiEvents.queryAnswered, envelope.data)
    const day = dayOf(new Date(a.answered_at).toISOString())
    const now = new Date().toISOString()
    await bumpDaily(tx.db, day, 'ai_usage_count', now)
    if (EXTERNAL.has(a.provider)) await bumpDaily(tx.db, day, 'knowledge_provider_usage_count', now)
    if (a.provider === 'compatibility') await bumpDaily(tx.db, day, 'compat_provider_usage_count', now)
  },
}
