/** The inbox's reads: `GET /api/omni/inbox` (services/conversations README "Inbox") by view and filters. */
import { ApiError, api } from '../../lib/http.ts'

export type InboxView = 'mine' | 'unassigned' | 'waiting' | 'all'
export const INBOX_VIEWS: InboxView[] = ['mine', 'unassigned', 'waiting', 'all']
export const SESSION_STATUSES = ['active', 'waiting_human', 'transferred', 'closed'] as const
export const CHANNELS = ['web', 'email', 'voice', 'api'] as const

export interface InboxFilters {
  status?: string
  channel?: string
}

export interface LastMessage {
  id: string
  seq: number
  sender: string
  sender_id: string | null
  kind: string
  visibility: string
  /** the first 200 characters */
  preview: string
  created_at: string
}

export interface InboxItem {
  id: string
  status: string
  channel: string
  subject: string
  priority: string
  customer_id: string | null
  visitor_id: string | null
  customer_name: string | null
  agent_id: string | null
  ticket_id: string | null
  message_count: number
  started_at: string
  /** what the list is sorted by */
  last_activity_at: string
  last_message: LastMessage | null
  /** messages after the caller's read marker (not its own, not system messages) */
  unread_count: number
  last_read_seq: number
  queue_position: number | null
  estimated_wait_seconds: number | null
  /** false only in a `changed_since` answer: the conversation left the view */
  in_view: boolean
}

export interface InboxPage {
  items: InboxItem[]
  next_cursor: string | null
  /** the next resync's `changed_since` */
  server_time: string
}

export const PAGE_SIZE = 200

export const inboxKey = (view: InboxView, filters: InboxFilters) => ['inbox', view, filters] as const

function inboxQuery(view: InboxView, filters: InboxFilters) {
  return { view, status: filters.status, channel: filters.channel, limit: PAGE_SIZE }
}

export function fetchInboxPage(view: InboxView, filters: InboxFilters, cursor: string | null, signal?: AbortSignal) {
  return api<InboxPage>('/api/omni/inbox', { signal, query: { ...inboxQuery(view, filters), cursor } })
}

/** Everything in (or just out of) the view that changed since `since`, every page of it. */
export async function fetchInboxChanges(view: InboxView, filters: InboxFilters, since: string) {
  const items: InboxItem[] = []
  let cursor: string | null = null
  let serverTime = since
  do {
    const page: InboxPage = await api<InboxPage>('/api/omni/inbox', {
      query: { ...inboxQuery(view, filters), changed_since: since, cursor },
    })
    items.push(...page.items)
    if (!cursor) serverTime = page.server_time
    cursor = page.next_cursor
  } while (cursor)
  return { items, serverTime }
}

/** Whether the caller may list every conversation (`workspace.supervise` or admin): the All tab. */
export async function fetchMaySeeAll(): Promise<boolean> {
  try {
    await api<InboxPage>('/api/omni/inbox', { query: { view: 'all', limit: 1 } })
    return true
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return false
    throw err
  }
}

export function byLastActivity(a: InboxItem, b: InboxItem): number {
  const x = a.last_activity_at
  const y = b.last_activity_at
  return x < y ? 1 : x > y ? -1 : a.id < b.id ? 1 : -1
}
