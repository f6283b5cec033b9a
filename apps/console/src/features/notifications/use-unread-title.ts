/**
 * The tab title carries the unread count: "(3) Switchboard". The counts are the server's (`unread_count` of each
 * inbox row, patched live by hub frames) read from the query cache, each conversation once — kept up by
 * `inbox-rows.ts` from the pages each cache change replaced, so a live frame does not recount 50,000 rows.
 */
import { useEffect, useSyncExternalStore } from 'react'
import { subscribeUnread, unreadTotal } from './inbox-rows.ts'

export function useUnreadTitle(base: string): number {
  const unread = useSyncExternalStore(subscribeUnread, unreadTotal)
  useEffect(() => {
    document.title = unread > 0 ? `(${unread}) ${base}` : base
    return () => {
      document.title = base
    }
  }, [unread, base])
  return unread
}
