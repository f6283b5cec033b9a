import { type Static, Type } from '@sinclair/typebox'

// The wire of /api/statistics: bare JSON objects and arrays, no envelope (what the earlier system's clients read),
// `[{key, count}]` for grouped counts, one key name for every grouping (the earlier system reused `category`). Dates are checked by the route (a calendar day, the range's order and length), so the
// schema only bounds their size.

const DateParam = (description: string) => Type.String({ maxLength: 10, description })

/** Days and "today" in this zone instead of UTC (an IANA name such as Asia/Shanghai; checked by the route). */
const Tz = Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone; default UTC' }))

export const ZoneQuery = Type.Object({ tz: Tz }, { additionalProperties: false })
export type ZoneQuery = Static<typeof ZoneQuery>

export const RangeQuery = Type.Object(
  {
    start_date: DateParam('first day, YYYY-MM-DD (a UTC day, or a day of tz), inclusive'),
    end_date: DateParam(
      'last day, YYYY-MM-DD (a UTC day, or a day of tz), inclusive; at most 366 days after start_date',
    ),
    tz: Tz,
  },
  { additionalProperties: false },
)
export type RangeQuery = Static<typeof RangeQuery>

export const AgentPerformanceQuery = Type.Composite(
  [RangeQuery, Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }) })],
  { additionalProperties: false },
)
export type AgentPerformanceQuery = Static<typeof AgentPerformanceQuery>

/** Grouped ticket counts: both dates, or neither (the last 30 days up to today). */
export const OptionalRangeQuery = Type.Object(
  {
    start_date: Type.Optional(DateParam('first day, YYYY-MM-DD (a UTC day, or a day of tz); with end_date')),
    end_date: Type.Optional(DateParam('last day, YYYY-MM-DD (a UTC day, or a day of tz); with start_date')),
    tz: Tz,
  },
  { additionalProperties: false },
)
export type OptionalRangeQuery = Static<typeof OptionalRangeQuery>

export const DayQuery = Type.Object(
  { date: Type.Optional(DateParam('the day to recompute, YYYY-MM-DD (UTC); default today')) },
  { additionalProperties: false },
)
export type DayQuery = Static<typeof DayQuery>

const Count = Type.Integer({ minimum: 0 })
const Seconds = Type.Number({ minimum: 0, description: 'seconds' })
const Rating = Type.Number({ minimum: 0, maximum: 5, description: 'mean rating 1–5; 0 when there is none' })

/** Every metric of the spec's definitions table, plus the knowledge-provider counters the earlier system's dashboard carried. */
export const Dashboard = Type.Object({
  total_customers: Count,
  total_agents: Count,
  total_tickets: Count,
  total_sessions: Count,
  today_tickets: Count,
  today_sessions: Count,
  today_messages: Count,
  open_tickets: Count,
  assigned_tickets: Count,
  resolved_tickets: Count,
  closed_tickets: Count,
  online_agents: Count,
  busy_agents: Count,
  active_sessions: Count,
  avg_response_time: Seconds,
  avg_resolution_time: Seconds,
  customer_satisfaction: Rating,
  ai_usage_today: Count,
  knowledge_provider_usage_today: Count,
  compat_provider_usage_today: Count,
})
export type Dashboard = Static<typeof Dashboard>

export const TimeRangeDay = Type.Object({
  date: Type.String(),
  tickets: Count,
  sessions: Count,
  messages: Count,
  resolved_tickets: Count,
  avg_response_time: Seconds,
  customer_satisfaction: Rating,
})
export type TimeRangeDay = Static<typeof TimeRangeDay>

export const AgentPerformance = Type.Object({
  agent_id: Type.String({ description: "the agent's user id (what tickets' agent_id holds)" }),
  agent_name: Type.String(),
  department: Type.String(),
  total_tickets: Count,
  resolved_tickets: Count,
  avg_response_time: Seconds,
  avg_resolution_time: Seconds,
  rating: Type.Number(),
})
export type AgentPerformance = Static<typeof AgentPerformance>

export const KeyCount = Type.Object({ key: Type.String(), count: Count })
export type KeyCount = Static<typeof KeyCount>

export const SlaViolationsDay = Type.Object({ date: Type.String(), sla_violations: Count })
export type SlaViolationsDay = Static<typeof SlaViolationsDay>

/** DailyStats' AI counters of a UTC day (0 in a scoped view: DailyStats has no tenant) */
export const AiUsageDay = Type.Object({
  date: Type.String(),
  ai_usage_count: Count,
  knowledge_provider_usage_count: Count,
  compat_provider_usage_count: Count,
})
export type AiUsageDay = Static<typeof AiUsageDay>

export const DailyStats = Type.Object({
  date: Type.String(),
  total_sessions: Count,
  total_messages: Count,
  total_tickets: Count,
  resolved_tickets: Count,
  ai_usage_count: Count,
  knowledge_provider_usage_count: Count,
  compat_provider_usage_count: Count,
  sla_violations: Count,
  updated_at: Type.String(),
})
export type DailyStats = Static<typeof DailyStats>

export const DailyUpdated = Type.Object({ message: Type.String(), date: Type.String(), stats: DailyStats })
export type DailyUpdated = Static<typeof DailyUpdated>
