/** Tickets' service settings (services/tickets sla-satisfaction-macros.md and README), through the gateway. */
import { api, type Page } from '../../lib/http.ts'

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface SlaConfig {
  id: string
  name: string
  priority: string
  customer_tier: string
  warning_threshold: number
  first_response_time: number
  resolution_time: number
  escalation_time: number
  business_hours_only: boolean
  active: boolean
}

export type SlaInput = Omit<SlaConfig, 'id'>

export interface BusinessHours {
  time_zone: string
  /** opening ranges per day, `[["09:00", "12:00"], …]`; a missing or empty day is closed */
  weekly: Partial<Record<Weekday, [string, string][]>>
  is_default: boolean
  updated_at: string | null
}

export interface TicketSettings {
  auto_assign: boolean
  /** closing a ticket sends the customer a satisfaction survey */
  survey_enabled: boolean
  /** how many days a survey's link answers (a resend's too) */
  survey_expiry_days: number
  is_default: boolean
  updated_at: string | null
}

export interface Survey {
  id: string
  ticket_id: string
  agent_name: string
  channel: string
  status: string
  sent_at: string
  expires_at: string
  completed_at: string | null
}

export const keys = {
  sla: ['settings-service', 'sla'] as const,
  hours: ['settings-service', 'hours'] as const,
  tickets: ['settings-service', 'tickets'] as const,
  surveys: (status: string) => ['settings-service', 'surveys', status] as const,
}

const slaPath = (id: string) => `/api/sla/configs/${encodeURIComponent(id)}`
export const listSla = (signal?: AbortSignal) =>
  api<Page<SlaConfig>>('/api/sla/configs', { query: { page: 1, page_size: 100 }, signal })
export const createSla = (body: SlaInput) => api<SlaConfig>('/api/sla/configs', { method: 'POST', body })
export const updateSla = (id: string, body: SlaInput) => api<SlaConfig>(slaPath(id), { method: 'PUT', body })
export const deleteSla = (id: string) => api<unknown>(slaPath(id), { method: 'DELETE' })

export const readHours = (signal?: AbortSignal) => api<BusinessHours>('/api/sla/business-hours', { signal })
export const writeHours = (body: Pick<BusinessHours, 'time_zone' | 'weekly'>) =>
  api<BusinessHours>('/api/sla/business-hours', { method: 'PUT', body })

export const readTicketSettings = (signal?: AbortSignal) => api<TicketSettings>('/api/tickets/settings', { signal })
/** The keys given change, the others keep their value (the service merges). */
export const writeTicketSettings = (
  body: Partial<Pick<TicketSettings, 'auto_assign' | 'survey_enabled' | 'survey_expiry_days'>>,
) => api<TicketSettings>('/api/tickets/settings', { method: 'PUT', body })

export const listSurveys = (status: string, signal?: AbortSignal) =>
  api<Page<Survey>>('/api/satisfactions/surveys', {
    query: { page: 1, page_size: 50, status: status || undefined },
    signal,
  })
export const resendSurvey = (id: string) =>
  api<Survey & { link: string }>(`/api/satisfactions/surveys/${encodeURIComponent(id)}/resend`, { method: 'POST' })
