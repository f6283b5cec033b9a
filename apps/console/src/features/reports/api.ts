/** Statistics' reads (services/statistics README "Endpoints"), through the gateway with the user's token. */
import { api } from '../../lib/http.ts'
import { type Scope, selectors } from '../../lib/scope-picker.tsx'

export type Dashboard = Record<string, number>

export interface DayRow {
  date: string
  tickets: number
  sessions: number
  messages: number
  resolved_tickets: number
  avg_response_time: number
  customer_satisfaction: number
}

export interface AgentRow {
  agent_id: string
  agent_name: string
  department: string
  total_tickets: number
  resolved_tickets: number
  avg_response_time: number
  avg_resolution_time: number
  rating: number
}

export interface Range {
  start_date: string
  end_date: string
  tz: string
}

export interface RatingStats {
  total_ratings: number
  average_rating: number
  rating_distribution: Record<string, number>
}

/** grouped counts (ticket-category, ticket-priority, customer-source), most first */
export interface KeyCount {
  key: string
  count: number
}

export interface SlaDay {
  date: string
  sla_violations: number
}

/** DailyStats' AI counters of a UTC day (0 in a scoped view: DailyStats has no tenant) */
export interface AiDay {
  date: string
  ai_usage_count: number
  knowledge_provider_usage_count: number
  compat_provider_usage_count: number
}

export interface Lag {
  caught_up: boolean
  projections: { projection: string; lag_seconds: number; pending: boolean; rebuilding: boolean }[]
}

/** The tenant/workspace a platform operator narrows the reports to: lib/scope-picker.tsx (sent as selector headers). */
export type { Scope } from '../../lib/scope-picker.tsx'

export const reportKeys = {
  all: ['reports'] as const,
  grouped: (what: string, r: Range | null, s: Scope) => ['reports', 'grouped', what, r, s] as const,
  sla: (r: Range, s: Scope) => ['reports', 'sla', r, s] as const,
  ai: (r: Range, s: Scope) => ['reports', 'ai', r, s] as const,
  lag: ['reports', 'lag'] as const,
  ratings: (r: Range, s: Scope) => ['reports', 'ratings', r, s] as const,
  dashboard: (tz: string, s: Scope) => ['reports', 'dashboard', tz, s] as const,
  days: (r: Range, s: Scope) => ['reports', 'days', r, s] as const,
  agents: (r: Range, s: Scope) => ['reports', 'agents', r, s] as const,
}

export const getDashboard = (tz: string, s: Scope, signal?: AbortSignal) =>
  api<Dashboard>('/api/statistics/dashboard', { query: { tz }, headers: selectors(s), signal })

export const getDays = (r: Range, s: Scope, signal?: AbortSignal) =>
  api<DayRow[]>('/api/statistics/time-range', { query: { ...r }, headers: selectors(s), signal })

export const getAgents = (r: Range, s: Scope, signal?: AbortSignal) =>
  api<AgentRow[]>('/api/statistics/agent-performance', {
    query: { ...r, limit: 100 },
    headers: selectors(s),
    signal,
  })

export const getGrouped = (what: 'ticket-category' | 'ticket-priority', r: Range, s: Scope, signal?: AbortSignal) =>
  api<KeyCount[]>(`/api/statistics/${what}`, { query: { ...r }, headers: selectors(s), signal })

/** customer records by source: a count of now, no days */
export const getSources = (s: Scope, signal?: AbortSignal) =>
  api<KeyCount[]>('/api/statistics/customer-source', { headers: selectors(s), signal })

export const getSla = (r: Range, s: Scope, signal?: AbortSignal) =>
  api<SlaDay[]>('/api/statistics/sla-violations', { query: { ...r }, headers: selectors(s), signal })

/** DailyStats' rows are UTC days: the range's dates are asked as UTC days (no tz) */
export const getAi = (r: Range, s: Scope, signal?: AbortSignal) =>
  api<AiDay[]>('/api/statistics/ai-usage', {
    query: { start_date: r.start_date, end_date: r.end_date },
    headers: selectors(s),
    signal,
  })

export const getLag = (signal?: AbortSignal) => api<Lag>('/api/statistics/lag', { signal })

/** tickets' rating statistics (satisfaction.read); its days are UTC days: the service takes no zone. */
export const getRatings = (r: Range, s: Scope, signal?: AbortSignal) =>
  api<RatingStats>('/api/satisfactions/stats', {
    query: { date_from: r.start_date, date_to: r.end_date },
    headers: selectors(s),
    signal,
  })

/** The browser's zone, the one the screen's days are in (UTC when the browser names none). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** YYYY-MM-DD of a day in a zone. */
export function dayIn(zone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  )
}
