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
import type { InboxItem, InboxPage } from './api.ts'
import { syncInbox } from './inbox-sync.ts'
import type { InboxData } from './use-inbox.ts'

const LIST_CHANGES = new Set(['transfer_notification', 'waiting_notification'])

function cachedRow(sessionId: string): InboxItem | undefined {
  for (const [, data] of queryClient.getQueriesData<InboxData>({ queryKey: ['inbox'] })) {
    for (const page of data?.pages ?? []) {
      const row = page.items?.find((r) => r.id === sessionId)
      if (row) return row
    }
  }
  return undefined
}

/**
 * A list with the conversation's row replaced (`toTop`: moved to the head of the first page — it has the newest
 * activity now — which keeps each list in activity order without sorting 50,000 rows per frame); the same object
 * when the list does not hold it or nothing changed.
 */
function patchList(data: InboxData, sessionId: string, patch: (row: InboxItem) => InboxItem, toTop: boolean) {
  if (!data.pages) return data
  let row: InboxItem | undefined
  let patched: InboxItem | undefined
  let pages = data.pages.map((page): InboxPage => {
    const index = page.items.findIndex((r) => r.id === sessionId)
    if (index < 0) return page
    row ??= page.items[index]!
    patched ??= patch(row)
    if (patched === row && !toTop) return page
    const items = page.items.slice()
    if (toTop) items.splice(index, 1)
    else items[index] = patched
    return { ...page, items }
  })
  if (!patched || (patched === row && !toTop)) return data
  if (toTop) {
    const first = pages[0]!
    pages = [{ ...first, items: [patched, ...first.items] }, ...pages.slice(1)]
  }
  return { ...data, pages }
}

/**
 * Patches the row in every cached list that holds it, and only in those: a list left as it was is not set again
 * (each set tells every cache listener, some of which read all 50,000 rows). False when no list holds it.
 */
function patchRow(sessionId: string, patch: (row: InboxItem) => InboxItem, toTop = false): boolean {
  let held = false
  notifyManager.batch(() => {
    for (const [key, data] of queryClient.getQueriesData<InboxData>({ queryKey: ['inbox'] })) {
      if (!data?.pages) continue
      const next = patchList(data, sessionId, patch, toTop)
      if (next === data) {
        held ||= cachedIn(data, sessionId)
        continue
      }
      held = true
      queryClient.setQueryData(key, next)
    }
  })
  return held
}

function cachedIn(data: InboxData, sessionId: string): boolean {
  return data.pages.some((page) => page.items?.some((r) => r.id === sessionId))
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
