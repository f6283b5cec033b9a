import { AiEvents } from '@switchboard/contracts'
import { nowIso, on } from '@switchboard/platform'
import { countAnswer } from '../db/aggregates.repository.ts'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import type { DailyCounter } from '../db/database.ts'
import { dayOf } from '../domain/dates.ts'
import { projection } from './projection.ts'
import { scopeOfEvent } from './scope.ts'

export const AI_PROJECTION = 'statistics-ai'

/** Where an answer's passages came from that counts as a knowledge provider's use. */
const EXTERNAL = new Set(['primary', 'compatibility'])

/** An answer given for no workspace (a platform caller's): counted for the unscoped view only. */
const PLATFORM = { tenant_id: '', workspace_id: '' }

/**
 * ai-orchestrator's answers → the AI counters (spec: IncrementAIUsage, IncrementKnowledgeProvider,
 * IncrementCompatProvider), on the day the answer was given: `ai_usage_count` for every answer (a hand-over
 * included: the AI handled the question), `knowledge_provider_usage_count` when an external provider's passages
 * were behind it, `compat_provider_usage_count` when that provider was the compatibility one. Both in DailyStats
 * (system level) and in ai_days under the envelope's scope (the asker's), which the reports read. Applied once (inbox).
 */
export const aiProjection = projection({
  durable: AI_PROJECTION,
  stream: 'AI',
  subjects: ['ai.>'],
  handlers: [
    on(AiEvents.queryAnswered, (event, tx) => {
      const a = event.data
      const day = dayOf(new Date(a.answered_at).toISOString())
      const now = nowIso()
      const moved: DailyCounter[] = ['ai_usage_count']
      if (EXTERNAL.has(a.provider)) moved.push('knowledge_provider_usage_count')
      if (a.provider === 'compatibility') moved.push('compat_provider_usage_count')
      const scope = scopeOfEvent(event.envelope) ?? PLATFORM
      countAnswer(tx.work, scope, day, Object.fromEntries(moved.map((c) => [c, 1])))
      for (const counter of moved) bumpDaily(tx.work, day, counter, now)
    }),
  ],
})
