import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Timestamp } from '@switchboard/contracts'

export const CsatTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) })
export type CsatTokenParams = Static<typeof CsatTokenParams>

/** What the public page may show: the ticket's title, the agent's display name, and the survey's own state. */
export const PublicSurvey = Type.Object({
  ticket_title: Type.String(),
  agent_name: Type.String(),
  status: Type.String({ description: 'sent | completed | expired' }),
  expires_at: Timestamp,
  completed_at: Nullable(Timestamp),
})
export type PublicSurvey = Static<typeof PublicSurvey>

export const CsatRespondBody = Type.Object(
  { rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
)
export type CsatRespondBody = Static<typeof CsatRespondBody>

export const CsatRespondResult = Type.Object({
  message: Type.String(),
  data: Type.Object({ rating: Type.Integer(), comment: Type.String(), created_at: Timestamp }),
})
