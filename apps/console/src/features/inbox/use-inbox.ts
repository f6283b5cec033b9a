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

const nextCursor = (last: InboxPage) => last.next_cursor

export function useInbox(view: InboxView, filters: InboxFilters) {
  // the same options object while the view and filters stay: a new one per render (a new key array, a new queryFn)
  // made TanStack tell every cache listener "observerOptionsUpdated" on each render — with 50,000 rows cached, one
  // more pass of every listener that reads the lists per live frame
  const options = useMemo(
    () => ({
      queryKey: inboxKey(view, filters),
      initialPageParam: null as string | null,
      queryFn: async ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) => {
        const page = await fetchInboxPage(view, filters, pageParam, signal)
        hub.noteServerTime(page.server_time)
        return page
      },
      getNextPageParam: nextCursor,
      // every change of the cache is immutable already (a patched row is a new object in new page arrays, the rest
      // shared): structural sharing compared all 50,000 rows again on each live frame (~3 ms) and on each page
      structuralSharing: false,
    }),
    [view, filters],
  )
  const query = useInfiniteQuery(options)
  // the cache keeps each list in activity order (server pages, live rows moved to the top, changes merged into
  // the first page): flattening is all it takes, no sort over 50,000 rows per live frame. Only the first page
  // gains rows out of the server's paging, so only its ids are checked for a row a later page lists again.
  const rows = useMemo<InboxItem[]>(() => {
    const pages = query.data?.pages ?? []
    const first = pages[0]?.items ?? []
    const all = first.slice()
    if (pages.length > 1) {
      const top = new Set<string>()
      for (const row of first) top.add(row.id)
      for (let p = 1; p < pages.length; p++) for (const row of pages[p]!.items) if (!top.has(row.id)) all.push(row)
    }
    // the queue in its own order (1 = next)
    return view === 'waiting'
      ? all.sort((a, b) => (a.queue_position ?? Infinity) - (b.queue_position ?? Infinity) || byLastActivity(a, b))
      : all
  }, [query.data, view])
  return { ...query, rows }
}

/** The All tab is for those the server lets list everything (supervisors, admins): asked once per session. */
const maySeeAllQuery = { queryKey: ['inbox-may-see-all'], queryFn: fetchMaySeeAll, staleTime: Infinity }

export function useMaySeeAll(): boolean {
  const query = useQuery(maySeeAllQuery)
  return query.data === true
}
