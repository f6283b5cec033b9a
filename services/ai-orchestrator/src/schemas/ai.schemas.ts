import { Type } from '@sinclair/typebox'

export const QueryBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 4000 }),
    /**
     * the conversation the question belongs to, one of the caller's workspace (else 400): recorded with the answer,
     * never a provider's dataset
     */
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
)

const PassageView = Type.Object({
  document_id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  score: Type.Number(),
  source: Type.String(),
  highlights: Type.Optional(Type.Array(Type.String())),
  chunk_index: Type.Optional(Type.Integer()),
})

export const AnswerView = Type.Object({
  query_id: Type.String(),
  content: Type.String(),
  confidence: Type.Number(),
  source: Type.String(),
  strategy: Type.String(),
  sources: Type.Array(PassageView),
  duration_ms: Type.Number(),
  llm_used: Type.Boolean(),
  tokens_used: Type.Integer(),
})

const Loose = Type.Unsafe<object>({ type: 'object', additionalProperties: true })

export const StatusView = Type.Object({
  preferred: Type.String(),
  providers: Type.Array(Loose),
  llm: Loose,
  fallback: Loose,
})

export const MetricsView = Loose

export const ProviderSwitchQuery = Type.Object({
  /** one provider; absent: both external providers */
  provider: Type.Optional(Type.Union([Type.Literal('primary'), Type.Literal('compatibility')])),
})

export const BreakerResetQuery = Type.Object({
  breaker: Type.Optional(Type.Union([Type.Literal('primary'), Type.Literal('compatibility'), Type.Literal('llm')])),
})

export const Message = Type.Object({ success: Type.Boolean(), message: Type.String(), data: Type.Optional(Loose) })

export const UploadBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    content: Type.String({ minLength: 1, maxLength: 200_000 }),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
)
