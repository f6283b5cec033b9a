/** The customer sidebar's reads and writes: the activity (conversations), the contact record and its notes (identity). */
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

/** A dated note on the customer (identity's `customer_notes`), newest first. */
export interface CustomerNote {
  id: string
  customer_id: string
  author_user_id: string
  content: string
  created_at: string
}

export const customerKeys = {
  activity: (userId: string) => ['customer', userId, 'activity'] as const,
  record: (customerId: string) => ['customer', customerId] as const,
  notes: (customerId: string) => ['customer', customerId, 'notes'] as const,
}

/** `:id` may be the user id a session names: conversations finds the customer of the caller's scope by either. */
export const getActivity = (userId: string) =>
  api<Activity>(`/api/customers/${encodeURIComponent(userId)}/activity`, { query: { limit: 10 } })

export const getCustomer = (customerId: string) => api<Customer>(`/api/customers/${encodeURIComponent(customerId)}`)

/** `customers.read` (every agent); at most the newest 200. */
export const listNotes = (customerId: string) =>
  api<{ count: number; items: CustomerNote[] }>(`/api/customers/${encodeURIComponent(customerId)}/notes`)

/** `customers.write`: the server decides (an agent's role does not hold it by default; the refusal is shown). */
export const addNote = (customerId: string, content: string) =>
  api<CustomerNote>(`/api/customers/${encodeURIComponent(customerId)}/notes`, { method: 'POST', body: { content } })
