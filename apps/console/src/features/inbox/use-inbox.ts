/** The inbox's list for a view and filters: keyset pages from the server in the query cache, newest activity first. */
import { type InfiniteData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { hub } from '../../lib/hub.ts'
import {
  byLastActivity,
  fetchInboxPage,
  fetchMaySeeAll,
  type InboxFilters,
  type InboxItem,
  type InboxPage,
  type InboxView,
  inboxKey,
} from './api.ts'

export type InboxData = InfiniteData<InboxPage, string | null>

export function useInbox(view: InboxView, filters: InboxFilters) {
  const query = useInfiniteQuery({
    queryKey: inboxKey(view, filters),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchInboxPage(view, filters, pageParam, signal)
      hub.noteServerTime(page.server_time)
      return page
    },
    getNextPageParam: (last) => last.next_cursor,
  })
  const rows = useMemo<InboxItem[]>(() => {
    const seen = new Set<string>()
    const all: InboxItem[] = []
    for (const page of query.data?.pages ?? []) {
      for (const row of page.items) {
        // a row that moved between pages while they loaded is listed once
        if (seen.has(row.id)) continue
        seen.add(row.id)
        all.push(row)
      }
    }
    // the queue in its own order (1 = next), every other list by last activity (live updates reorder it)
    return view === 'waiting'
      ? all.sort((a, b) => (a.queue_position ?? Infinity) - (b.queue_position ?? Infinity) || byLastActivity(a, b))
      : all.sort(byLastActivity)
  }, [query.data, view])
  return { ...query, rows }
}

/** The All tab is for those the server lets list everything (supervisors, admins): asked once per session. */
export function useMaySeeAll(): boolean {
  const query = useQuery({ queryKey: ['inbox-may-see-all'], queryFn: fetchMaySeeAll, staleTime: Infinity })
  return query.data === true
}
