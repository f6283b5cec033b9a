import type { Scope } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import {
  agentFigures,
  conversationFigures,
  countCustomers,
  meanRating,
  ticketFigures,
} from '../db/dashboard.repository.ts'
import { aiCountersOf } from '../db/day-series.repository.ts'
import {
  agentPerformance,
  customersBySource,
  type Grain,
  type PerKey,
  perKey,
  ticketsBy,
} from '../db/reports.repository.ts'
import { rounded } from '../domain/figures.ts'
import { dayIn, dayStartIn } from '../domain/zones.ts'
import type { AgentPerformance, Dashboard, KeyCount, TimeRangeDay } from '../schemas/statistics.schemas.ts'
import { type Range, UTC } from './range.ts'

/**
 * UTC days are read from the aggregates per day; another zone's days are not whole UTC days, so they are read from
 * the raw rows (grouped by UTC quarter hour).
 */
export const grainOf = (range: Range): Grain => (range.tz === UTC ? 'day' : 'quarter')

/**
 * The spec's metric definitions, each over the read models within `scope` (empty = every tenant). "Today" starts at
 * 00:00 in `tz` (UTC by default). The AI counters are the scope's answers of the current UTC day (ai_days counts
 * UTC days, whatever `tz`).
 */
export async function dashboard(svc: StatisticsService, scope: Scope, now: Date, tz = UTC): Promise<Dashboard> {
  const since = dayStartIn(dayIn(now, tz), tz)
  const aiDay = dayIn(now, UTC)
  const [customers, agents, tickets, conversations, satisfaction, [ai]] = await Promise.all([
    countCustomers(svc.db, scope),
    agentFigures(svc.db, scope),
    ticketFigures(svc.db, scope, since),
    // every zone's midnight is a UTC quarter hour: the message buckets from there on are today's
    conversationFigures(svc.db, scope, since, since.slice(0, 16)),
    meanRating(svc.db, scope),
    aiCountersOf(svc.db, scope, aiDay, aiDay),
  ])
  return {
    total_customers: customers,
    ...agents,
    ...tickets,
    ...conversations,
    avg_response_time: rounded(agents.avg_response_time),
    avg_resolution_time: rounded(tickets.avg_resolution_time),
    customer_satisfaction: rounded(satisfaction),
    ai_usage_today: ai?.ai_usage_count ?? 0,
    knowledge_provider_usage_today: ai?.knowledge_provider_usage_count ?? 0,
    compat_provider_usage_today: ai?.compat_provider_usage_count ?? 0,
  }
}

/** Adds up per-key figures into the days they fall on: UTC days are keys already; a zone's are quarter hours. */
export function byDay(figures: PerKey, tz: string): PerKey {
  if (tz === UTC) return figures
  const days: PerKey = new Map()
  for (const [key, value] of figures) {
    const day = dayIn(`${key}:00.000Z`, tz)
    days.set(day, (days.get(day) ?? 0) + value)
  }
  return days
}

/**
 * One row per day of the range (spec time-range rules): counts by created_at in the day, resolved_tickets by
 * resolved_at in the day, the day's mean rating; avg_response_time is the agents' global mean, the same every day.
 * Days are UTC days, or `tz`'s (grouped by quarter hour in the database, then added up here).
 */
export async function timeRange(svc: StatisticsService, scope: Scope, range: Range): Promise<TimeRangeDay[]> {
  const grain = grainOf(range)
  const [keyed, agents] = await Promise.all([
    perKey(svc.db, svc.dialect, scope, range, grain),
    agentFigures(svc.db, scope),
  ])
  const [tickets, sessions, resolved, messages, ratingSum, ratingCount] = [
    keyed.tickets,
    keyed.sessions,
    keyed.resolved,
    keyed.messages,
    keyed.ratingSum,
    keyed.ratingCount,
  ].map((m) => byDay(m, range.tz)) as [PerKey, PerKey, PerKey, PerKey, PerKey, PerKey]
  const responseTime = rounded(agents.avg_response_time)
  return range.days.map((date) => {
    const rated = ratingCount.get(date) ?? 0
    return {
      date,
      tickets: tickets.get(date) ?? 0,
      sessions: sessions.get(date) ?? 0,
      messages: messages.get(date) ?? 0,
      resolved_tickets: resolved.get(date) ?? 0,
      avg_response_time: responseTime,
      customer_satisfaction: rated === 0 ? 0 : rounded((ratingSum.get(date) ?? 0) / rated),
    }
  })
}

export async function agentPerformanceReport(
  svc: StatisticsService,
  scope: Scope,
  range: Range,
  limit: number,
): Promise<AgentPerformance[]> {
  const rows = await agentPerformance(svc.db, svc.dialect, scope, range, limit, grainOf(range))
  return rows.map((r) => ({
    ...r,
    avg_response_time: rounded(r.avg_response_time),
    avg_resolution_time: rounded(r.avg_resolution_time),
  }))
}

export const ticketCategories = (svc: StatisticsService, scope: Scope, range: Range): Promise<KeyCount[]> =>
  ticketsBy(svc.db, scope, 'category', range, grainOf(range))

export const ticketPriorities = (svc: StatisticsService, scope: Scope, range: Range): Promise<KeyCount[]> =>
  ticketsBy(svc.db, scope, 'priority', range, grainOf(range))

export const customerSources = (svc: StatisticsService, scope: Scope): Promise<KeyCount[]> =>
  customersBySource(svc.db, scope)
