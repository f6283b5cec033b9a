/**
 * Brings every cached inbox list up to date with `changed_since` (each list's own last `server_time`): changed
 * conversations replace their rows, those that left the view (`in_view: false`) are dropped, new ones join.
 * One sync at a time; a request during one runs once more after it.
 */
import { invalidate, queryClient } from '../../lib/query.ts'
import { byLastActivity, fetchInboxChanges, type InboxFilters, type InboxItem, type InboxView } from './api.ts'
import type { InboxData } from './use-inbox.ts'

export function mergeChanges(data: InboxData, changes: InboxItem[], serverTime: string): InboxData {
  const changed = new Set(changes.map((c) => c.id))
  const pages = data.pages.map((page) => ({ ...page, items: page.items.filter((row) => !changed.has(row.id)) }))
  const first = pages[0]
  if (!first) return data
  // what changed has the newest activity: it joins the first page, which alone is re-sorted
  const items = [...changes.filter((c) => c.in_view), ...first.items].sort(byLastActivity)
  pages[0] = { ...first, items, server_time: serverTime }
  return { ...data, pages }
}

async function syncOne(key: readonly unknown[], data: InboxData): Promise<void> {
  const [, view, filters] = key as [string, InboxView, InboxFilters]
  const since = data.pages[0]?.server_time
  if (!since) return invalidate(key)
  try {
    const { items, serverTime } = await fetchInboxChanges(view, filters, since)
    queryClient.setQueryData<InboxData>(key, (current) =>
      current ? mergeChanges(current, items, serverTime) : current,
    )
  } catch {
    await invalidate(key)
  }
}

let running: Promise<void> | null = null
let again = false

export function syncInbox(): Promise<void> {
  if (running) {
    again = true
    return running
  }
  running = (async () => {
    do {
      again = false
      const lists = queryClient
        .getQueriesData<InboxData>({ queryKey: ['inbox'] })
        .filter(([key, data]) => key.length === 3 && data?.pages.length)
      await Promise.all(lists.map(([key, data]) => syncOne(key, data!)))
    } while (again)
  })().finally(() => {
    running = null
  })
  return running
}
