/** The inbox's reads: `GET /api/omni/sessions` by view (mine, unassigned, waiting, all) and filters. */
import { api, type Page } from '../../lib/http.ts'

export type InboxView = 'mine' | 'unassigned' | 'waiting' | 'all'
export const INBOX_VIEWS: InboxView[] = ['mine', 'unassigned', 'waiting', 'all']
export const SESSION_STATUSES = ['active', 'waiting_human', 'transferred', 'closed'] as const
export const CHANNELS = ['web', 'email', 'voice', 'api'] as const

export interface InboxFilters {
  status?: string
  channel?: string
}

export interface SessionRow {
  id: string
  status: string
  channel: string
  subject: string
  customer_id: string | null
  visitor_id: string | null
  agent_id: string | null
  priority: string
  message_count: number
  started_at: string
  last_message_at: string | null
  ended_at: string | null
  queue_position: number | null
  estimated_wait_seconds: number | null
  /** the caller's unread messages in it (conversations' list views) */
  unread_count?: number
  /** the newest message's text, when the list carries it or a live frame brought it */
  last_message_preview?: string
}

export interface InboxPage extends Page<SessionRow> {
  /** the server's clock at the answer: the next resync asks for `changed_since` it */
  server_time?: string
}

export const PAGE_SIZE = 100

export const inboxKey = (view: InboxView, filters: InboxFilters) => ['inbox', view, filters] as const

export function fetchInboxPage(view: InboxView, filters: InboxFilters, page: number, signal?: AbortSignal) {
  return api<InboxPage>('/api/omni/sessions', {
    signal,
    query: {
      view,
      // `mine` is also what a conversations service without list views understands
      mine: view === 'mine' ? true : undefined,
      status: filters.status || (view === 'waiting' ? 'waiting_human' : undefined),
      channel: filters.channel,
      page,
      page_size: PAGE_SIZE,
    },
  })
}

/** Last activity: the newest message, else the start. */
export const lastActivity = (row: SessionRow) => row.last_message_at ?? row.started_at

export function byLastActivity(a: SessionRow, b: SessionRow): number {
  const x = lastActivity(a)
  const y = lastActivity(b)
  return x < y ? 1 : x > y ? -1 : a.id < b.id ? 1 : -1
}

export interface WaitingRecord {
  session_id: string
  status: string
  queue_position: number | null
  estimated_wait_seconds?: number | null
}

/** The waiting queue in order, with positions: what the Waiting queue tab shows beside each conversation. */
export function fetchWaiting(signal?: AbortSignal) {
  return api<{ count: number; items: WaitingRecord[] }>('/api/session-transfer/waiting', { signal })
}
