// The console inbox's live-frame bookkeeping, in Node against the app's own modules and query cache (no browser):
// the row index (apps/console/src/features/inbox/row-index.ts) must list exactly what the cached pages list —
// in order, each conversation once — through thousands of moves to the top, next pages and compactions; and the
// notifications' incremental unread total and names (features/notifications/inbox-rows.ts) must equal a full
// recount of the cache after every kind of change (a live move, a next page, a refetch, a removed list).
import t, { type Test } from 'tap'
import type { InboxItem, InboxPage } from '../apps/console/src/features/inbox/api.ts'
import { RowIndex, rowIndex } from '../apps/console/src/features/inbox/row-index.ts'
import type { InboxData } from '../apps/console/src/features/inbox/use-inbox.ts'
import {
  cachedCustomerName,
  subscribeUnread,
  unreadTotal,
} from '../apps/console/src/features/notifications/inbox-rows.ts'
import { queryClient } from '../apps/console/src/lib/query.ts'

const row = (n: number, unread = 1): InboxItem =>
  ({ id: `c${n}`, unread_count: unread, customer_name: `Name ${n}` }) as InboxItem
const page = (items: InboxItem[]): InboxPage => ({ items, next_cursor: null, server_time: '' })
const data = (pages: InboxPage[]): InboxData => ({ pages, pageParams: pages.map(() => null) })

/** What the pages list, the first listing of each conversation winning (the order the inbox shows). */
function flat(d: InboxData): InboxItem[] {
  const seen = new Set<string>()
  const out: InboxItem[] = []
  for (const p of d.pages) {
    for (const r of p.items) {
      if (seen.has(r.id)) continue
      seen.add(r.id)
      out.push(r)
    }
  }
  return out
}

function same(t: Test, index: RowIndex, expected: InboxItem[], what: string) {
  const wrong: string[] = []
  if (index.length !== expected.length) wrong.push(`length ${index.length} ≠ ${expected.length}`)
  for (let i = 0; i < expected.length && wrong.length < 3; i++) {
    if (index.at(i) !== expected[i]) wrong.push(`at(${i}) ${index.at(i)?.id} ≠ ${expected[i]!.id}`)
    if (index.indexOf(expected[i]!.id) !== i)
      wrong.push(`indexOf(${expected[i]!.id}) ${index.indexOf(expected[i]!.id)} ≠ ${i}`)
  }
  t.same(wrong, [], what)
}

let seed = 7
const random = (m: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed % m
}

t.test('the row index lists what the pages list through moves, next pages and compactions', async (t) => {
  let n = 0
  const pages = Array.from({ length: 40 }, () => page(Array.from({ length: 200 }, () => row(n++))))
  pages[7]!.items.push(row(3)) // listed twice (a page fetched while rows moved): shown once, where first listed
  const index = new RowIndex(data(pages.slice(0, 10)))
  let model = flat(data(pages.slice(0, 10)))
  same(t, index, model, 'built from 10 pages, the repeated row once')
  // more moves than the free slots ahead (4,096): compacted on the way
  for (let k = 0; k < 6_000; k++) {
    const moved = { ...model[random(model.length)]! }
    model = [moved, ...model.filter((r) => r.id !== moved.id)]
    index.moveToTop(moved)
  }
  same(t, index, model, 'after 6,000 moves to the top')
  t.same(index.locate(model[0]!.id)?.page, 0, 'a moved row is on the first page')
  const more = data([...index.data.pages, ...pages.slice(10)])
  t.ok(index.extendedBy(more), 'the same pages with more after them extend the index')
  t.notOk(index.extendedBy(data(pages.slice(1))), 'other pages do not')
  index.extend(more)
  const held = new Set(model.map((r) => r.id))
  for (const r of flat(data(pages.slice(10))))
    if (!held.has(r.id)) {
      held.add(r.id)
      model.push(r)
    }
  same(t, index, model, 'after 30 more pages')
  const replaced = { ...model[1234]!, unread_count: 0 }
  index.replace(replaced)
  model[1234] = replaced
  same(t, index, model, 'a row replaced in place')
  t.equal(index.indexOf('nobody'), -1, 'a conversation not listed')
})

t.test('rowIndex hands the index on to a next page and rebuilds on any other change', async (t) => {
  const key = ['inbox', 'mine', {}] as const
  const first = data([page([row(1), row(2)])])
  const a = rowIndex(key, first)
  t.equal(rowIndex(key, first), a, 'the same data, the same index')
  const next = data([first.pages[0]!, page([row(3), row(2)])])
  t.equal(rowIndex(key, next), a, 'a next page extends it')
  same(t, a, [next.pages[0]!.items[0]!, next.pages[0]!.items[1]!, next.pages[1]!.items[0]!], 'rows of both pages')
  const refetched = data([page([row(3), row(1)])])
  const b = rowIndex(key, refetched)
  t.not(b, a, 'a refetch builds a new one')
  same(t, b, refetched.pages[0]!.items, 'from the refetched pages')
})

t.test('the unread total and names kept incrementally equal a full recount of the cache', async (t) => {
  const recount = () => {
    const counts = new Map<string, number>()
    for (const [, d] of queryClient.getQueriesData<InboxData>({ queryKey: ['inbox'] })) {
      for (const p of d?.pages ?? [])
        for (const r of p.items) counts.set(r.id, Math.max(counts.get(r.id) ?? 0, r.unread_count))
    }
    let total = 0
    for (const c of counts.values()) total += c
    return total
  }
  let calls = 0
  const stop = subscribeUnread(() => calls++)
  t.teardown(stop)
  const mine = ['inbox', 'mine', {}]
  const all = ['inbox', 'all', {}]
  let n = 0
  const pages = Array.from({ length: 20 }, () => page(Array.from({ length: 200 }, () => row(n++, n % 3))))
  queryClient.setQueryData(mine, data(pages.slice(0, 10)))
  // the All list holds some of the same conversations with other counts: each counts once, at its highest
  queryClient.setQueryData(all, data([page(pages[0]!.items.slice(0, 50).map((r) => ({ ...r, unread_count: 5 })))]))
  t.equal(unreadTotal(), recount(), 'after the first pages')
  t.equal(cachedCustomerName('c42'), 'Name 42', 'a name from the cached rows')
  t.equal(cachedCustomerName('c99999'), null, 'none for a conversation no list holds')
  // live moves, as the inbox's patch makes them: the page that held the row and the first page replaced
  for (let k = 0; k < 200; k++) {
    const d = queryClient.getQueryData<InboxData>(mine)!
    const p = random(d.pages.length)
    const items = d.pages[p]!.items
    if (!items.length) continue
    const at = random(items.length)
    const moved = { ...items[at]!, unread_count: items[at]!.unread_count + 1 }
    const nextPages = d.pages.slice()
    const without = items.slice()
    without.splice(at, 1)
    nextPages[p] = { ...d.pages[p]!, items: without }
    nextPages[0] = { ...nextPages[0]!, items: [moved, ...nextPages[0]!.items] }
    queryClient.setQueryData(mine, { ...d, pages: nextPages })
  }
  t.equal(unreadTotal(), recount(), 'after 200 live moves')
  const d = queryClient.getQueryData<InboxData>(mine)!
  queryClient.setQueryData(mine, { ...d, pages: [...d.pages, ...pages.slice(10)] })
  t.equal(unreadTotal(), recount(), 'after next pages')
  queryClient.setQueryData(
    mine,
    data(pages.slice(0, 3).map((p) => page(p.items.map((r) => ({ ...r, unread_count: 0 }))))),
  )
  t.equal(unreadTotal(), recount(), 'after a refetch (every page new, many read)')
  queryClient.removeQueries({ queryKey: all })
  t.equal(unreadTotal(), recount(), 'after a list is removed')
  t.ok(calls > 0, 'subscribers were told')
  queryClient.clear()
  t.equal(unreadTotal(), 0, 'nothing cached, nothing unread')
})
