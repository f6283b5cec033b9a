/**
 * The tab title carries the unread count: "(3) Switchboard". The counts are the server's (`unread_count` of each
 * inbox row, patched live by hub frames) read from the query cache, each conversation once — kept up by
 * `inbox-rows.ts` from the pages each cache change replaced, so a live frame does not recount 50,000 rows. The
 * title is written outside React and after the frame (once per burst, `TITLE_DELAY_MS` later): a render per change
 * ran in the live frame's commit, and each `document.title` write costs the browser ~1 ms.
 */
import { useEffect } from 'react'
import { subscribeUnread, unreadTotal } from './inbox-rows.ts'

const TITLE_DELAY_MS = 100

export function useUnreadTitle(base: string): void {
  useEffect(() => {
    const write = () => {
      const unread = unreadTotal()
      const title = unread > 0 ? `(${unread}) ${base}` : base
      if (document.title !== title) document.title = title
    }
    let timer: ReturnType<typeof setTimeout> | null = null
    write()
    const unsubscribe = subscribeUnread(() => {
      timer ??= setTimeout(() => {
        timer = null
        write()
      }, TITLE_DELAY_MS)
    })
    return () => {
      unsubscribe()
      if (timer) clearTimeout(timer)
      document.title = base
    }
  }, [base])
}
