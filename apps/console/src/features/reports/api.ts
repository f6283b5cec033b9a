/** Statistics' reads (services/statistics README "Endpoints"), through the gateway with the user's token. */
import { api } from '../../lib/http.ts'

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

export const reportKeys = {
  ratings: (r: Range) => ['reports', 'ratings', r] as const,
  dashboard: (tz: string) => ['reports', 'dashboard', tz] as const,
  days: (r: Range) => ['reports', 'days', r] as const,
  agents: (r: Range) => ['reports', 'agents', r] as const,
}

export const getDashboard = (tz: string, signal?: AbortSignal) =>
  api<Dashboard>('/api/statistics/dashboard', { query: { tz }, signal })

export const getDays = (r: Range, signal?: AbortSignal) =>
  api<DayRow[]>('/api/statistics/time-range', { query: { ...r }, signal })

export const getAgents = (r: Range, signal?: AbortSignal) =>
  api<AgentRow[]>('/api/statistics/agent-performance', { query: { ...r, limit: 100 }, signal })

/** tickets' rating statistics (satisfaction.read); its days are UTC days: the service takes no zone. */
export const getRatings = (r: Range, signal?: AbortSignal) =>
  api<RatingStats>('/api/satisfactions/stats', { query: { date_from: r.start_date, date_to: r.end_date }, signal })

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
