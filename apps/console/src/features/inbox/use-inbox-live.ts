/**
 * Live inbox: hub frames update the cached lists in place (a message moves its conversation up and counts as
 * unread unless it is open or the caller's own); anything the cache cannot place — a new conversation, an
 * assignment, the queue — and every hub resync (reconnect, back online, tab visible) syncs the lists with
 * `changed_since`.
 */
import { notifyManager } from '@tanstack/react-query'
import { useRef } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import { type HubFrame, MESSAGE_FRAME_TYPES, type MessageFrameData } from '../../lib/hub.ts'
import { useHubFrames, useHubResync } from '../../lib/hub-hooks.ts'
import { queryClient } from '../../lib/query.ts'
import type { InboxItem } from './api.ts'
import { syncInbox } from './inbox-sync.ts'
import { forgetRowIndex, handOn, RowIndex, rowIndex } from './row-index.ts'
import type { InboxData } from './use-inbox.ts'

const LIST_CHANGES = new Set(['transfer_notification', 'waiting_notification'])

/** The inbox lists in the cache (`['inbox', view, filters]`) that hold data. */
function cachedLists(): { key: readonly unknown[]; data: InboxData }[] {
  const lists: { key: readonly unknown[]; data: InboxData }[] = []
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['inbox'] })) {
    const data = query.state.data as InboxData | undefined
    if (query.queryKey.length === 3 && data?.pages) lists.push({ key: query.queryKey, data })
  }
  return lists
}

function cachedRow(sessionId: string): InboxItem | undefined {
  for (const { key, data } of cachedLists()) {
    const found = rowIndex(key, data).locate(sessionId)
    if (found) return found.row
  }
  return undefined
}

/**
 * The list's pages with the row (`row`, on page `pageNo`) replaced by `patched` — `toTop`: moved to the head of the
 * first page (it has the newest activity now), which keeps each list in activity order without sorting. Only the
 * pages that change are copied (the one holding it and the first); undefined when the page no longer holds it.
 */
function patchPages(data: InboxData, pageNo: number, row: InboxItem, patched: InboxItem, toTop: boolean) {
  const page = data.pages[pageNo]
  const at = page ? page.items.indexOf(row) : -1
  if (!page || at < 0) return undefined
  const pages = data.pages.slice()
  const items = page.items.slice()
  if (!toTop) items[at] = patched
  else {
    items.splice(at, 1)
    if (pageNo === 0) items.unshift(patched)
    else pages[0] = { ...pages[0]!, items: [patched, ...pages[0]!.items] }
  }
  pages[pageNo] = { ...page, items }
  return { ...data, pages }
}

/**
 * Patches the row in every cached list that holds it, and only in those: a list left as it was is not set again.
 * Each list's row index (row-index.ts) finds the row and its page in O(1) and takes the same change, so nothing
 * walks the list's rows. False when no list holds it.
 */
function patchRow(sessionId: string, patch: (row: InboxItem) => InboxItem, toTop = false): boolean {
  let held = false
  notifyManager.batch(() => {
    for (const { key, data } of cachedLists()) {
      let index = rowIndex(key, data)
      const found = index.locate(sessionId)
      if (!found) continue
      held = true
      const patched = patch(found.row)
      if (patched === found.row && !toTop) continue
      let next = patchPages(data, found.page, found.row, patched, toTop)
      if (!next) {
        // the index no longer matches the pages (it should not happen): built again from them
        forgetRowIndex(key)
        index = new RowIndex(data)
        const again = index.locate(sessionId)
        if (!again) continue
        next = patchPages(data, again.page, again.row, patched, toTop)
        if (!next) continue
      }
      if (toTop) index.moveToTop(patched)
      else index.replace(patched)
      handOn(key, index, next)
      const stored = queryClient.setQueryData<InboxData>(key, next)
      // the same object unless the query shares structure (the inbox's own options turn that off): equal rows
      if (stored && stored !== next) handOn(key, index, stored)
    }
  })
  return held
}

export function useInboxLive(openId: string | null): void {
  const { user } = useAuth()
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)
  // a burst of frames (a queue change reaches every console) costs one sync
  const syncSoon = () => {
    if (pending.current) return
    pending.current = setTimeout(() => {
      pending.current = null
      void syncInbox()
    }, 50)
  }

  useHubFrames((frame: HubFrame) => {
    const sessionId = frame.session_id
    if (!sessionId) return
    if (MESSAGE_FRAME_TYPES.has(frame.type)) {
      const data = frame.data as MessageFrameData & { visibility?: string }
      // a streamed AI answer's partial frames are not messages yet
      if (!data?.message_id) return
      const counts = sessionId !== openId && data.sender !== 'system' && data.sender_id !== user?.id
      const at = data.created_at ?? new Date().toISOString()
      // ISO timestamps compare as strings
      const newer = (row: InboxItem) => (row.last_activity_at.localeCompare(at) < 0 ? at : row.last_activity_at)
      const held = patchRow(
        sessionId,
        (row) => ({
          ...row,
          last_activity_at: newer(row),
          last_message: {
            id: data.message_id,
            seq: data.seq,
            sender: data.sender,
            sender_id: data.sender_id,
            kind: data.kind,
            visibility: data.visibility ?? 'public',
            preview: (data.content ?? '').slice(0, 200),
            created_at: at,
          },
          message_count: Math.max(row.message_count, data.seq ?? row.message_count + 1),
          unread_count: sessionId === openId ? 0 : row.unread_count + (counts ? 1 : 0),
        }),
        true,
      )
      // a conversation no list holds yet (new, or just assigned): the lists ask what changed
      if (!held) syncSoon()
      return
    }
    // `session` answers every join too: only a status the lists do not show yet changes them
    if (frame.type === 'session') {
      const status = (frame.data as { status?: string })?.status
      if (status && cachedRow(sessionId)?.status !== status) syncSoon()
      return
    }
    if (LIST_CHANGES.has(frame.type)) syncSoon()
  })

  useHubResync(() => syncSoon())
}

/** Opening a conversation reads it: its unread count goes to 0 in every list at once. */
export function markOpened(sessionId: string): void {
  patchRow(sessionId, (row) => (row.unread_count ? { ...row, unread_count: 0 } : row))
}
