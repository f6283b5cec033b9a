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
  // the cache keeps each list in activity order (server pages, live rows moved to the top, changes merged into
  // the first page): flattening is all it takes, no sort over 50,000 rows per live frame. Only the first page
  // gains rows out of the server's paging, so only its ids are checked for a row a later page lists again.
  const rows = useMemo<InboxItem[]>(() => {
    const [first, ...rest] = query.data?.pages ?? []
    const top = new Set(first?.items.map((r) => r.id))
    const all = [...(first?.items ?? [])]
    for (const page of rest) for (const row of page.items) if (!top.has(row.id)) all.push(row)
    // the queue in its own order (1 = next)
    return view === 'waiting'
      ? all.sort((a, b) => (a.queue_position ?? Infinity) - (b.queue_position ?? Infinity) || byLastActivity(a, b))
      : all
  }, [query.data, view])
  return { ...query, rows }
}

/** The All tab is for those the server lets list everything (supervisors, admins): asked once per session. */
export function useMaySeeAll(): boolean {
  const query = useQuery({ queryKey: ['inbox-may-see-all'], queryFn: fetchMaySeeAll, staleTime: Infinity })
  return query.data === true
}
