/**
 * Live inbox: hub frames update the cached lists in place (a message moves its conversation up and counts as
 * unread unless it is open); anything the cache cannot place — a new conversation, an assignment, the queue —
 * refetches the lists, and so does every hub resync (reconnect, back online, tab visible again).
 */
import { useRef } from 'react'
import { type HubFrame, MESSAGE_FRAME_TYPES, type MessageFrameData } from '../../lib/hub.ts'
import { useHubFrames, useHubResync } from '../../lib/hub-hooks.ts'
import { invalidate, queryClient, updateCached } from '../../lib/query.ts'
import type { InboxPage, SessionRow } from './api.ts'
import type { InboxData } from './use-inbox.ts'

const LIST_CHANGES = new Set(['transfer_notification', 'waiting_notification'])

function cachedRow(sessionId: string): SessionRow | undefined {
  for (const [, data] of queryClient.getQueriesData<InboxData>({ queryKey: ['inbox'] })) {
    for (const page of data?.pages ?? []) {
      const row = page.data.find((r) => r.id === sessionId)
      if (row) return row
    }
  }
  return undefined
}

function patchRow(sessionId: string, patch: (row: SessionRow) => SessionRow): void {
  updateCached<InboxData>(['inbox'], (data) => {
    let changed = false
    const pages = data.pages.map((page): InboxPage => {
      const index = page.data.findIndex((row) => row.id === sessionId)
      if (index < 0) return page
      changed = true
      const rows = page.data.slice()
      rows[index] = patch(rows[index]!)
      return { ...page, data: rows }
    })
    return changed ? { ...data, pages } : data
  })
}

export function useInboxLive(openId: string | null): void {
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)
  // a burst of frames (a queue change reaches every console) costs one refetch
  const refetchSoon = () => {
    if (pending.current) return
    pending.current = setTimeout(() => {
      pending.current = null
      void invalidate(['inbox'])
    }, 50)
  }

  useHubFrames((frame: HubFrame) => {
    const sessionId = frame.session_id
    if (!sessionId) return
    if (MESSAGE_FRAME_TYPES.has(frame.type)) {
      const data = frame.data as MessageFrameData
      // a streamed AI answer's partial frames are not messages yet
      if (!data?.message_id) return
      if (!cachedRow(sessionId)) return refetchSoon()
      const fromCustomer = data.sender === 'customer'
      patchRow(sessionId, (row) => ({
        ...row,
        last_message_at: data.created_at ?? new Date().toISOString(),
        message_count: Math.max(row.message_count, data.seq ?? row.message_count + 1),
        last_message_preview: data.content ?? row.last_message_preview,
        unread_count: sessionId === openId ? 0 : (row.unread_count ?? 0) + (fromCustomer ? 1 : 0),
      }))
      return
    }
    // `session` answers every join too: only a status the lists do not show yet changes them
    if (frame.type === 'session') {
      const status = (frame.data as { status?: string })?.status
      if (status && cachedRow(sessionId)?.status !== status) refetchSoon()
      return
    }
    if (LIST_CHANGES.has(frame.type)) refetchSoon()
  })

  useHubResync(() => refetchSoon())
}

/** Opening a conversation reads it: its unread count goes to 0 in every list at once. */
export function markOpened(sessionId: string): void {
  patchRow(sessionId, (row) => (row.unread_count ? { ...row, unread_count: 0 } : row))
}
