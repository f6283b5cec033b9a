import { type Static, Type } from '@sinclair/typebox'
import { Timestamp } from '@switchboard/contracts'

const Query = Type.String({ minLength: 1, maxLength: 2000 })
/** asked for; more than the cap is served as the cap (MAX_SUGGESTIONS, domain/assist.ts) */
const Limit = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000, description })

export const SuggestQuery = Type.Object({
  query: Query,
  limit: Type.Optional(Limit('similar tickets, default 5, at most 20')),
  doc_limit: Type.Optional(Limit('knowledge docs, default 5, at most 20')),
})
export type SuggestQuery = Static<typeof SuggestQuery>

export const SuggestBody = Type.Object(
  {
    query: Query,
    ticket_limit: Type.Optional(Limit('similar tickets, default 5, at most 20')),
    knowledge_doc_limit: Type.Optional(Limit('knowledge docs, default 5, at most 20')),
    candidate_ticket_max: Type.Optional(Limit('tickets and docs looked at, newest first: default 200, at most 1000')),
  },
  { additionalProperties: false },
)
export type SuggestBody = Static<typeof SuggestBody>

export const Suggestions = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    query: Type.String(),
    intent: Type.Object({
      label: Type.Union([
        Type.Literal('complaint'),
        Type.Literal('billing'),
        Type.Literal('technical'),
        Type.Literal('general'),
      ]),
      confidence: Type.Number(),
      matches: Type.Optional(Type.Array(Type.String())),
    }),
    similar_tickets: Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        status: Type.String(),
        category: Type.String(),
        priority: Type.String(),
        created_at: Timestamp,
        score: Type.Number(),
      }),
    ),
    knowledge_docs: Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        category: Type.String(),
        tags: Type.Array(Type.String()),
        score: Type.Number(),
      }),
    ),
    meta: Type.Object({
      tokens: Type.Array(Type.String()),
      ticket_candidates: Type.Integer(),
      doc_candidates: Type.Integer(),
    }),
  }),
})
export type Suggestions = Static<typeof Suggestions>
