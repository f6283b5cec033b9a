/**
 * What notifications read of the cached inbox lists (`['inbox', view, filters]`: pages of rows with `id`,
 * `unread_count`, `customer_name`), kept up incrementally from the query cache's events: each list's pages are
 * compared with the ones seen before by identity (the inbox's updates are immutable: a live frame replaces only
 * the page that held the row and the first one), so a frame costs the rows of the pages it changed, not a walk over
 * 50,000 rows; a refetch (every page new) is the full recount. The unread total counts each conversation once (the
 * highest count a list holds for it).
 */
import { queryClient } from '../../lib/query.ts'

interface Row {
  id: string
  unread_count?: number
  customer_name?: string | null
}
interface CachedList {
  pages?: { items?: Row[] }[]
}

/** each list's data as last seen, by query hash */
const seen = new Map<string, CachedList | undefined>()
/** conversation id → the row each list holds for it */
const held = new Map<string, Map<string, Row>>()
let total = 0
const listeners = new Set<() => void>()
let started = false

function highest(rows: Map<string, Row> | undefined): number {
  let max = 0
  if (rows) for (const row of rows.values()) max = Math.max(max, row.unread_count ?? 0)
  return max
}

function setRow(list: string, id: string, row: Row | undefined): void {
  let rows = held.get(id)
  const before = highest(rows)
  if (row) {
    if (!rows) {
      rows = new Map()
      held.set(id, rows)
    }
    rows.set(list, row)
  } else if (rows) {
    rows.delete(list)
    if (rows.size === 0) held.delete(id)
  }
  total += highest(rows) - before
}

/** The rows of the pages that differ between what the list held and what it holds now. */
function take(list: string, data: CachedList | undefined): void {
  const before = seen.get(list)
  if (before === data) return
  if (data) seen.set(list, data)
  else seen.delete(list)
  const oldPages = before?.pages ?? []
  const newPages = data?.pages ?? []
  const gone = new Set<string>()
  const count = Math.max(oldPages.length, newPages.length)
  for (let p = 0; p < count; p++) {
    if (oldPages[p] === newPages[p]) continue
    for (const row of oldPages[p]?.items ?? []) gone.add(row.id)
  }
  for (let p = 0; p < count; p++) {
    if (oldPages[p] === newPages[p]) continue
    for (const row of newPages[p]?.items ?? []) {
      gone.delete(row.id)
      setRow(list, row.id, row)
    }
  }
  for (const id of gone) setRow(list, id, undefined)
}

function start(): void {
  if (started) return
  started = true
  const isList = (key: readonly unknown[]) => key[0] === 'inbox' && key.length === 3
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['inbox'] })) {
    if (isList(query.queryKey)) take(query.queryHash, query.state.data as CachedList | undefined)
  }
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'added' && event.type !== 'updated' && event.type !== 'removed') return
    if (!isList(event.query.queryKey)) return
    const before = total
    take(event.query.queryHash, event.type === 'removed' ? undefined : (event.query.state.data as CachedList))
    if (total !== before) for (const fn of listeners) fn()
  })
}

/** The unread messages of every cached inbox row, each conversation once. */
export function unreadTotal(): number {
  start()
  return total
}

export function subscribeUnread(fn: () => void): () => void {
  start()
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** The customer's name a cached inbox list holds for the conversation, or null. */
export function cachedCustomerName(sessionId: string | undefined): string | null {
  if (!sessionId) return null
  start()
  for (const row of held.get(sessionId)?.values() ?? []) if (row.customer_name) return row.customer_name
  return null
}
