/** The customer sidebar's reads: the activity (conversations) and the contact record (identity). */
import { api } from '../../lib/http.ts'

export interface Customer {
  id: string
  user_id: string
  name: string
  email: string
  phone: string
  company: string
  tags: string[]
  notes: string
}

export interface ActivitySession {
  id: string
  status: string
  subject: string | null
  channel: string
  started_at: string
}

export interface ActivityTicket {
  id: string
  title: string
  status: string
  priority: string
  created_at: string
}

export interface Activity {
  customer_id: string
  user_id: string
  recent_sessions: ActivitySession[]
  recent_tickets: ActivityTicket[]
}

export const customerKeys = {
  activity: (userId: string) => ['customer', userId, 'activity'] as const,
  record: (customerId: string) => ['customer', customerId] as const,
}

/** `:id` may be the user id a session names: conversations finds the customer of the caller's scope by either. */
export const getActivity = (userId: string) =>
  api<Activity>(`/api/customers/${encodeURIComponent(userId)}/activity`, { query: { limit: 10 } })

export const getCustomer = (customerId: string) => api<Customer>(`/api/customers/${encodeURIComponent(customerId)}`)
