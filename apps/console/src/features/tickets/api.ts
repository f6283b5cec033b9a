/** The tickets screen's reads and writes (services/tickets/README.md): list, one ticket, comments, status, SLA. */
import { ApiError, api, type Page } from '../../lib/http.ts'
import type { ShowWhen } from './show-when.ts'

export const STATUSES = ['open', 'assigned', 'in_progress', 'resolved', 'closed'] as const
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export type TicketStatus = (typeof STATUSES)[number]

export interface Ticket {
  id: string
  title: string
  description: string
  status: TicketStatus
  priority: string
  category: string
  source?: string
  customer_id: string
  agent_id: string | null
  tags: string[]
  custom_fields: Record<string, unknown>
  resolved_at: string | null
  closed_at: string | null
  created_at: string
  updated_at: string
}

export interface Comment {
  id: string
  content: string
  type: string
  author_id?: string | null
  created_at: string
}

export interface CustomField {
  id: string
  key: string
  name?: string | null
  type: string
  required?: boolean
  active?: boolean
  options?: string[]
  show_when?: ShowWhen | null
}

export interface Violation {
  id: string
  violation_type: string
  deadline: string
  violated_at: string
  resolved: boolean
}

export interface TicketFilters {
  status: string
  priority: string
  agent_id: string
  cfKey: string
  cfValue: string
  page: number
}

/**
 * The moves PUT `status` accepts from each status (the service's status rules); open → assigned goes through
 * assign (it needs an agent) and close is its own route, so neither is listed here.
 */
export const TRANSITIONS: Record<TicketStatus, TicketStatus[]> = {
  open: [],
  assigned: ['in_progress', 'resolved', 'open'],
  in_progress: ['resolved', 'open'],
  resolved: ['closed'],
  closed: [],
}

export const ticketKeys = {
  list: (filters: TicketFilters) => ['tickets', 'list', filters] as const,
  one: (id: string) => ['tickets', id] as const,
  comments: (id: string) => ['tickets', id, 'comments'] as const,
  violations: (id: string) => ['tickets', id, 'violations'] as const,
  slaConfig: (priority: string) => ['tickets', 'sla-config', priority] as const,
}

export function listTickets(f: TicketFilters): Promise<Page<Ticket>> {
  const query: Record<string, string | number> = { page: f.page, page_size: 50 }
  if (f.status) query.status = f.status
  if (f.priority) query.priority = f.priority
  if (f.agent_id) query.agent_id = f.agent_id
  if (f.cfKey && f.cfValue) query[`cf.${f.cfKey}`] = f.cfValue
  return api<Page<Ticket>>('/api/tickets', { query })
}

export const getTicket = (id: string) => api<Ticket>(`/api/tickets/${encodeURIComponent(id)}`)

export const listComments = (id: string) =>
  api<Page<Comment>>(`/api/tickets/${encodeURIComponent(id)}/comments`, { query: { page_size: 100 } })

export const addComment = (id: string, content: string) =>
  api<Comment>(`/api/tickets/${encodeURIComponent(id)}/comments`, { method: 'POST', body: { content } })

export const setStatus = (id: string, status: TicketStatus) =>
  api<Ticket>(`/api/tickets/${encodeURIComponent(id)}`, { method: 'PUT', body: { status } })

/** `custom_fields` merge: a key replaces its value, `null` removes it (README "Custom fields"). */
export const setCustomFields = (id: string, custom_fields: Record<string, unknown>) =>
  api<Ticket>(`/api/tickets/${encodeURIComponent(id)}`, { method: 'PUT', body: { custom_fields } })

export const closeTicket = (id: string) =>
  api<Ticket>(`/api/tickets/${encodeURIComponent(id)}/close`, { method: 'POST', body: {} })

export const assignTicket = (id: string, agentId: string) =>
  api<Ticket>(`/api/tickets/${encodeURIComponent(id)}/assign`, { method: 'POST', body: { agent_id: agentId } })

export const listViolations = (id: string) =>
  api<Page<Violation>>('/api/sla/violations', { query: { ticket_id: id, page_size: 50 } })

export interface SlaConfig {
  id: string
  name: string
  priority: string
  customer_tier: string
  first_response_time: number
  resolution_time: number
  business_hours_only: boolean
  active: boolean
}

/** The config measuring a ticket of this priority (the catch-all tier's when the customer's has none); null: none. */
export async function getSlaConfig(priority: string): Promise<SlaConfig | null> {
  try {
    return await api<SlaConfig>(`/api/sla/configs/priority/${encodeURIComponent(priority)}`)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

export const listCustomFields = () =>
  api<{ count: number; items: CustomField[] }>('/api/custom-fields', { query: { resource: 'ticket', active: true } })
