import { WAITING_STATUS, WORKING_STATUSES } from './session-rules.ts'

// The inbox's views and cursors (README "Inbox"). Pure.

export type View = 'mine' | 'unassigned' | 'waiting' | 'all'

/** What a view lists, once its defaults are applied. */
export interface ViewFilter {
  view: View
  /** the caller (whose sessions `mine` lists) */
  me: string
  statuses: readonly string[]
  channel: string | undefined
}

/** open sessions unless statuses are asked; the waiting view is the queue whatever else is asked */
export function viewFilter(view: View, me: string, statuses: readonly string[] | undefined, channel?: string) {
  const open = [...WORKING_STATUSES, WAITING_STATUS]
  const chosen = view === 'waiting' ? [WAITING_STATUS] : statuses?.length ? [...new Set(statuses)] : open
  return { view, me, statuses: chosen, channel } satisfies ViewFilter
}

/** Does a session belong in the view (the SQL's twin, for a `changed_since` answer's `in_view`)? */
export function inView(s: { status: string; channel: string; agent_id: string | null }, f: ViewFilter): boolean {
  if (!f.statuses.includes(s.status)) return false
  if (f.channel !== undefined && s.channel !== f.channel) return false
  if (f.view === 'mine') return s.agent_id === f.me
  if (f.view === 'unassigned') return s.agent_id === null
  return true
}

/** A page's position: the last item's (last activity, id); opaque to clients. */
export interface InboxCursor {
  at: string
  id: string
}

export const encodeCursor = (c: InboxCursor) => Buffer.from(JSON.stringify([c.at, c.id])).toString('base64url')

export function decodeCursor(raw: string): InboxCursor | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
    if (!Array.isArray(v) || v.length !== 2) return undefined
    const [at, id] = v
    if (typeof at !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(at))) return undefined
    return { at: new Date(at).toISOString(), id }
  } catch {
    return undefined
  }
}

/**
 * A resync's `server_time`: this far before the answer was read, so a change whose transaction took its time
 * (`updated_at` set before a slow commit) is listed again next time rather than missed. Items may repeat; clients
 * replace them by id.
 */
export const RESYNC_OVERLAP_MS = 5_000
