/** The inbox's list for a view and filters: pages from the server, kept in the query cache, sorted by activity. */
import { type InfiniteData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { hub } from '../../lib/hub.ts'
import {
  byLastActivity,
  fetchInboxPage,
  fetchWaiting,
  type InboxFilters,
  type InboxPage,
  type InboxView,
  inboxKey,
  type SessionRow,
} from './api.ts'

export type InboxData = InfiniteData<InboxPage, number>

export function useInbox(view: InboxView, filters: InboxFilters) {
  const query = useInfiniteQuery({
    queryKey: inboxKey(view, filters),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchInboxPage(view, filters, pageParam, signal)
      hub.noteServerTime(page.server_time)
      return page
    },
    getNextPageParam: (last) => (last.page < last.pages ? last.page + 1 : undefined),
  })
  // positions come from the queue itself when the list does not carry them
  const waiting = useQuery({
    queryKey: ['inbox', 'waiting-positions'],
    queryFn: ({ signal }) => fetchWaiting(signal),
    enabled: view === 'waiting',
  })
  const rows = useMemo<SessionRow[]>(() => {
    const queue = new Map((waiting.data?.items ?? []).map((w) => [w.session_id, w]))
    const seen = new Set<string>()
    const all: SessionRow[] = []
    for (const page of query.data?.pages ?? []) {
      for (const row of page.data) {
        // a row that moved between pages while they loaded is listed once
        if (seen.has(row.id)) continue
        seen.add(row.id)
        const queued = queue.get(row.id)
        all.push(
          queued && row.queue_position == null
            ? {
                ...row,
                queue_position: queued.queue_position,
                estimated_wait_seconds: queued.estimated_wait_seconds ?? row.estimated_wait_seconds,
              }
            : row,
        )
      }
    }
    // the queue in its own order (1 = next), every other list by last activity
    return view === 'waiting'
      ? all.sort((a, b) => (a.queue_position ?? Infinity) - (b.queue_position ?? Infinity) || byLastActivity(a, b))
      : all.sort(byLastActivity)
  }, [query.data, waiting.data, view])
  const total = query.data?.pages[0]?.total ?? 0
  return { ...query, rows, total: Math.max(total, rows.length) }
}
