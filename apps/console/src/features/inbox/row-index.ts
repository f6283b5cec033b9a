/**
 * The rows of one cached inbox list in display order, indexed, so that a live frame costs O(log n) with 50,000
 * rows: find a conversation (which page holds it), move it to the top, read the row at a position (the
 * virtualizer's), the position of a conversation (the selected one). Derived from the query cache's pages, never a
 * second source: each index belongs to one `InboxData` object; the inbox's own patches (`use-inbox-live.ts`) apply
 * the same change to it and hand it on to the data they set, a next page is appended, and any other change of the
 * cache (a refetch, a `changed_since` merge) builds it again from the pages (O(n), not per frame).
 *
 * Rows sit in slots; a Fenwick tree counts the slots in use, so position ↔ slot is O(log n). A row moved to the
 * top leaves a hole and takes the slot before the first one (`HEADROOM` free slots ahead, compacted when used up).
 * A conversation listed twice (a page refetched while rows moved) is shown once, where it is listed first.
 */
import { hashKey, type QueryKey } from '@tanstack/react-query'
import { queryClient } from '../../lib/query.ts'
import type { InboxItem } from './api.ts'
import type { InboxData } from './use-inbox.ts'

const HEADROOM = 4_096

export interface RowList {
  readonly length: number
  at(index: number): InboxItem
  /** -1 when not listed */
  indexOf(id: string): number
}

export class RowIndex implements RowList {
  data: InboxData
  length = 0
  /** the pages of `data` taken in */
  private pageCount = 0
  private slots: (InboxItem | undefined)[] = []
  /** Fenwick tree over the slots (1-based): 1 per slot in use */
  private tree = new Int32Array(1)
  private head = 0
  private tail = 0
  private readonly slotOf = new Map<string, number>()
  /** the page of `data` that holds the conversation's row (its first listing) */
  private readonly pageOf = new Map<string, number>()

  constructor(data: InboxData) {
    this.data = data
    const rows: InboxItem[] = []
    for (const page of data.pages) this.takePage(page.items, rows)
    this.layout(rows, HEADROOM, rows.length)
  }

  /** Whether `data` is this index's data with more pages after it (a next page fetched). */
  extendedBy(data: InboxData): boolean {
    if (data.pages.length < this.pageCount) return false
    for (let p = 0; p < this.pageCount; p++) if (data.pages[p] !== this.data.pages[p]) return false
    return true
  }

  /** Takes in the pages `data` adds (see `extendedBy`). */
  extend(data: InboxData): void {
    const rows: InboxItem[] = []
    for (let p = this.pageCount; p < data.pages.length; p++) this.takePage(data.pages[p]!.items, rows)
    this.data = data
    if (this.tail + rows.length > this.slots.length) this.layout(this.live().concat(rows), HEADROOM, rows.length)
    else for (const row of rows) this.place(row, this.tail++)
  }

  /** The row of a conversation and the page holding it. */
  locate(id: string): { row: InboxItem; page: number } | undefined {
    const slot = this.slotOf.get(id)
    return slot === undefined ? undefined : { row: this.slots[slot]!, page: this.pageOf.get(id)! }
  }

  /** The conversation's row replaced where it is. */
  replace(row: InboxItem): void {
    const slot = this.slotOf.get(row.id)
    if (slot !== undefined) this.slots[slot] = row
  }

  /** The conversation's row (new, or replaced) at the top, in the first page. */
  moveToTop(row: InboxItem): void {
    const slot = this.slotOf.get(row.id)
    if (slot !== undefined) {
      this.slots[slot] = undefined
      this.add(slot, -1)
      this.length--
    }
    if (this.head === 0) this.layout(this.live(), HEADROOM, 0)
    this.place(row, --this.head)
    this.pageOf.set(row.id, 0)
  }

  at(index: number): InboxItem {
    // the smallest slot whose prefix count is index + 1 (Fenwick descent)
    let pos = 0
    let rest = index + 1
    for (let step = highBit(this.slots.length); step > 0; step >>= 1) {
      const next = pos + step
      if (next <= this.slots.length && this.tree[next]! < rest) {
        pos = next
        rest -= this.tree[next]!
      }
    }
    return this.slots[pos]!
  }

  indexOf(id: string): number {
    const slot = this.slotOf.get(id)
    if (slot === undefined) return -1
    let count = 0
    for (let i = slot + 1; i > 0; i -= i & -i) count += this.tree[i]!
    return count - 1
  }

  /** Every row in order (O(n): the waiting queue's sort, a compaction). */
  live(): InboxItem[] {
    const rows: InboxItem[] = []
    for (let s = this.head; s < this.tail; s++) {
      const row = this.slots[s]
      if (row) rows.push(row)
    }
    return rows
  }

  private takePage(items: InboxItem[], into: InboxItem[]): void {
    const page = this.pageCount++
    for (const row of items) {
      if (this.pageOf.has(row.id)) continue
      this.pageOf.set(row.id, page)
      into.push(row)
    }
  }

  /** The rows in fresh slots: `front` free ones before them, `back` after. */
  private layout(rows: InboxItem[], front: number, back: number): void {
    const size = front + rows.length + Math.max(back, 256)
    this.slots = new Array(size)
    this.tree = new Int32Array(size + 1)
    this.head = front
    this.tail = front + rows.length
    this.length = rows.length
    for (let i = 0; i < rows.length; i++) {
      const slot = front + i
      this.slots[slot] = rows[i]
      this.slotOf.set(rows[i]!.id, slot)
      this.tree[slot + 1] = 1
    }
    // the tree from the ones in O(size)
    for (let i = 1; i <= size; i++) {
      const parent = i + (i & -i)
      if (parent <= size) this.tree[parent]! += this.tree[i]!
    }
  }

  private place(row: InboxItem, slot: number): void {
    this.slots[slot] = row
    this.slotOf.set(row.id, slot)
    this.add(slot, 1)
    this.length++
  }

  private add(slot: number, delta: number): void {
    for (let i = slot + 1; i <= this.slots.length; i += i & -i) this.tree[i]! += delta
  }
}

function highBit(n: number): number {
  let bit = 1
  while (bit * 2 <= n) bit *= 2
  return bit
}

const byData = new WeakMap<InboxData, RowIndex>()
const byKey = new Map<string, RowIndex>()

/** The index of a cached list's data: the one handed on, the previous one extended, or built from the pages. */
export function rowIndex(key: QueryKey, data: InboxData): RowIndex {
  watchRemovals()
  const known = byData.get(data)
  if (known) return known
  const hash = hashKey(key)
  const previous = byKey.get(hash)
  let index: RowIndex
  if (previous?.extendedBy(data)) {
    byData.delete(previous.data)
    previous.extend(data)
    index = previous
  } else index = new RowIndex(data)
  byData.set(data, index)
  byKey.set(hash, index)
  return index
}

/** The index now belongs to `next` (the inbox's own patch applied to both). */
export function handOn(key: QueryKey, index: RowIndex, next: InboxData): void {
  byData.delete(index.data)
  index.data = next
  byData.set(next, index)
  byKey.set(hashKey(key), index)
}

export function forgetRowIndex(key: QueryKey): void {
  byKey.delete(hashKey(key))
}

let watching = false
/** A list dropped from the cache (logout, garbage collection): its index goes too. */
function watchRemovals(): void {
  if (watching) return
  watching = true
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'removed' && event.query.queryKey[0] === 'inbox') byKey.delete(event.query.queryHash)
  })
}

/** A plain array as a `RowList` (the waiting queue, sorted by position). */
export function arrayList(rows: InboxItem[]): RowList {
  return {
    length: rows.length,
    at: (index) => rows[index]!,
    indexOf: (id) => rows.findIndex((r) => r.id === id),
  }
}
