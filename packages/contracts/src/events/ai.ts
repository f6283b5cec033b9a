import { Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

/**
 * An AI query answered (POST /api/v1/ai/query or an AI reply in a conversation). Statistics moves DailyStats'
 * ai_usage_count on every one, knowledge_provider_usage_count when an external provider's passages made the answer,
 * and the compatibility-provider counter when that provider was the compatibility one.
 */
export const AiEvents = {
  queryAnswered: {
    type: 'ai.query.answered',
    data: Type.Object({
      query_id: Type.String(),
      /** where the passages came from: primary | compatibility | local | none */
      provider: Type.String(),
      /** primary | compatibility (an external provider's passages, through the LLM) | fallback | transfer */
      strategy: Type.String(),
      duration_ms: Type.Number({ minimum: 0 }),
      session_id: Nullable(Type.String()),
      llm_used: Type.Boolean(),
      answered_at: Type.String(),
    }),
  },
} as const
