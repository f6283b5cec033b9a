/** The inbox's list for a view and filters: pages from the server, kept in the query cache, sorted by activity. */
import { type InfiniteData, useInfiniteQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { hub } from '../../lib/hub.ts'
import {
  byLastActivity,
  fetchInboxPage,
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
  const rows = useMemo<SessionRow[]>(() => {
    const seen = new Set<string>()
    const all: SessionRow[] = []
    for (const page of query.data?.pages ?? []) {
      for (const row of page.data) {
        // a row that moved between pages while they loaded is listed once
        if (seen.has(row.id)) continue
        seen.add(row.id)
        all.push(row)
      }
    }
    return all.sort(byLastActivity)
  }, [query.data])
  const total = query.data?.pages[0]?.total ?? 0
  return { ...query, rows, total: Math.max(total, rows.length) }
}
