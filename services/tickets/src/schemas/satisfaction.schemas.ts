import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, Nullable, PageQuery, Paginated, Timestamp } from '@switchboard/contracts'
import { SURVEY_CHANNELS, SURVEY_STATUSES } from '../domain/survey-rules.ts'
import { DateParam } from './sla.schemas.ts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Rating = Type.Integer({ minimum: 1, maximum: 5 })
const Comment = Type.String({ maxLength: 2000 })
const Category = Type.String({ minLength: 1, maxLength: 64 })

export const Satisfaction = Type.Object({
  id: Type.String(),
  /** the rated ticket; null for a conversation's rating when the conversation has no ticket (or its ticket was rated) */
  ticket_id: Nullable(Type.String()),
  /** null for an anonymous widget visitor */
  customer_id: Nullable(Type.String()),
  /** the conversation a widget visitor rated at its close; null for a ticket's rating */
  session_id: Nullable(Type.String()),
  agent_id: Nullable(Type.String()),
  rating: Type.Integer(),
  comment: Type.String(),
  category: Type.String(),
  /** `api` (recorded by staff), `survey` (the customer's answer) or `widget` (a visitor's rating of a conversation) */
  source: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Satisfaction = Static<typeof Satisfaction>
export const SatisfactionPage = Paginated(Satisfaction)

export const CreateSatisfactionBody = Type.Object(
  {
    ticket_id: Id,
    customer_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: "must be the ticket's customer" }),
    ),
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "default: the ticket's agent" })),
    rating: Rating,
    comment: Type.Optional(Comment),
    category: Type.Optional(Category),
  },
  { additionalProperties: false },
)
export type CreateSatisfactionBody = Static<typeof CreateSatisfactionBody>

export const UpdateSatisfactionBody = Type.Object(
  { rating: Type.Optional(Rating), comment: Type.Optional(Comment), category: Type.Optional(Category) },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateSatisfactionBody = Static<typeof UpdateSatisfactionBody>

export const ListSatisfactionsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    ticket_id: Type.Optional(Id),
    customer_id: Type.Optional(Id),
    session_id: Type.Optional(Id),
    agent_id: Type.Optional(Id),
    rating: Type.Optional(Rating),
    category: Type.Optional(Category),
    date_from: Type.Optional(DateParam),
    date_to: Type.Optional(DateParam),
  }),
])
export type ListSatisfactionsQuery = Static<typeof ListSatisfactionsQuery>

/** `POST /internal/satisfactions/session`: conversations, for a widget visitor it verified, of a closed session. */
export const SessionRatingBody = Type.Object(
  {
    session_id: Id,
    ticket_id: Nullable(Id),
    customer_id: Nullable(Id),
    agent_id: Nullable(Id),
    rating: Rating,
    comment: Type.Optional(Comment),
  },
  { additionalProperties: false },
)
export type SessionRatingBody = Static<typeof SessionRatingBody>

export const TrendPoint = Type.Object({ date: Type.String(), count: Type.Integer(), average_rating: Type.Number() })
export const SatisfactionStats = Type.Object({
  total_ratings: Type.Integer(),
  average_rating: Type.Number(),
  rating_distribution: Type.Record(Type.String(), Type.Integer(), { description: '"1" … "5": count' }),
  category_stats: Type.Record(Type.String(), Type.Object({ count: Type.Integer(), average_rating: Type.Number() })),
  trend_data: Type.Array(TrendPoint),
})
export const SatisfactionStatsQuery = Type.Object({
  date_from: Type.Optional(DateParam),
  date_to: Type.Optional(DateParam),
})
export const TrendQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 7, description: 'days ending today (UTC)' })),
})
export const SatisfactionTrend = BoundedList(TrendPoint)

export const Survey = Type.Object({
  id: Type.String(),
  ticket_id: Type.String(),
  customer_id: Type.String(),
  agent_id: Nullable(Type.String()),
  agent_name: Type.String(),
  channel: Type.String(),
  status: Type.Union(SURVEY_STATUSES.map((s) => Type.Literal(s))),
  sent_at: Timestamp,
  expires_at: Timestamp,
  completed_at: Nullable(Timestamp),
  satisfaction_id: Nullable(Type.String()),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Survey = Static<typeof Survey>
export const SurveyPage = Paginated(Survey)
export const ListSurveysQuery = Type.Composite([
  PageQuery,
  Type.Object({
    ticket_id: Type.Optional(Id),
    customer_id: Type.Optional(Id),
    status: Type.Optional(Type.Union(SURVEY_STATUSES.map((s) => Type.Literal(s)))),
    channel: Type.Optional(Type.Union(SURVEY_CHANNELS.map((c) => Type.Literal(c)))),
  }),
])
export type ListSurveysQuery = Static<typeof ListSurveysQuery>

/** A resent survey, with the fresh link (the only time staff see one) to hand to the customer. */
export const ResentSurvey = Type.Composite([
  Survey,
  Type.Object({
    link: Type.String({
      description: '/csat/<token> (the survey page; JSON at /public/csat/<token>), relative to the public origin',
    }),
  }),
])
