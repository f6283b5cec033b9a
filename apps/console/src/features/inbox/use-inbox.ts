/** The inbox's list for a view and filters: keyset pages from the server in the query cache, newest activity first. */
import { type InfiniteData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { hub } from '../../lib/hub.ts'
import {
  byLastActivity,
  fetchInboxPage,
  fetchMaySeeAll,
  type InboxFilters,
  type InboxPage,
  type InboxView,
  inboxKey,
} from './api.ts'
import { arrayList, type RowList, rowIndex } from './row-index.ts'

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
  // the rows through the list's index (row-index.ts): in the cache's order (server pages, live rows moved to the
  // top, changes merged into the first page), each conversation once; kept up by the live patches and extended by
  // a next page, so a frame neither flattens nor searches 50,000 rows. The queue in its own order (1 = next).
  const data = query.data as InboxData | undefined
  const rows = useMemo<RowList>(() => {
    if (!data) return arrayList([])
    const index = rowIndex(options.queryKey, data)
    if (view !== 'waiting') return snapshot(index)
    return arrayList(
      index
        .live()
        .sort((a, b) => (a.queue_position ?? Infinity) - (b.queue_position ?? Infinity) || byLastActivity(a, b)),
    )
  }, [data, view, options.queryKey])
  return { ...query, rows }
}

/** A new object per data (what React compares), reading the index (which the next patch moves on). */
function snapshot(index: RowList): RowList {
  return { length: index.length, at: (i) => index.at(i), indexOf: (id) => index.indexOf(id) }
}

/** The All tab is for those the server lets list everything (supervisors, admins): asked once per session. */
const maySeeAllQuery = { queryKey: ['inbox-may-see-all'], queryFn: fetchMaySeeAll, staleTime: Infinity }

export function useMaySeeAll(): boolean {
  const query = useQuery(maySeeAllQuery)
  return query.data === true
}
