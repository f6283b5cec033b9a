/**
 * The tab title carries the unread count: "(3) Switchboard". The counts are the server's (`unread_count` of each
 * inbox row, patched live by hub frames) read from the query cache; a conversation listed in several views counts
 * once.
 */
import { useEffect, useState } from 'react'
import { queryClient } from '../../lib/query.ts'

interface CachedList {
  pages?: { items?: { id: string; unread_count?: number }[] }[]
}

export function unreadTotal(): number {
  const counts = new Map<string, number>()
  for (const [, data] of queryClient.getQueriesData<CachedList>({ queryKey: ['inbox'] })) {
    for (const page of data?.pages ?? []) {
      for (const row of page.items ?? []) counts.set(row.id, Math.max(counts.get(row.id) ?? 0, row.unread_count ?? 0))
    }
  }
  let total = 0
  for (const n of counts.values()) total += n
  return total
}

export function useUnreadTitle(base: string): number {
  const [unread, setUnread] = useState(unreadTotal)
  useEffect(() => queryClient.getQueryCache().subscribe(() => setUnread(unreadTotal())), [])
  useEffect(() => {
    document.title = unread > 0 ? `(${unread}) ${base}` : base
    return () => {
      document.title = base
    }
  }, [unread, base])
  return unread
}
