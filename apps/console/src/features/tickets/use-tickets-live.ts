/**
 * Keeps the tickets screen live: the hub sends a `ticket` frame to the consoles of the workspace for every ticket
 * created, updated, moved, commented, closed or past its SLA (services/realtime-voice README "Tickets"). A frame
 * names the ticket, not what a list filter would make of it, so the lists are refetched; the detail and its
 * comments only when the frame is about that ticket. A burst of frames is one refetch (coalesced for FLUSH_MS).
 * A resync (reconnect, wake) refetches everything shown: frames sent while the socket was down are gone. Leaving
 * the screen marks what it cached stale, so coming back refetches it.
 */
import { useEffect, useRef } from 'react'
import type { HubFrame } from '../../lib/hub.ts'
import { useHubFrames, useHubResync } from '../../lib/hub-hooks.ts'
import { queryClient } from '../../lib/query.ts'
import { ticketKeys } from './api.ts'

const FLUSH_MS = 150

export interface TicketFrameData {
  event: 'created' | 'updated' | 'status_changed' | 'commented' | 'closed' | 'sla_violated'
  ticket_id: string
}

/** The query keys a frame makes stale. */
export function staleKeys(data: TicketFrameData): (readonly unknown[])[] {
  const keys: (readonly unknown[])[] = [['tickets', 'list']]
  const id = data.ticket_id
  switch (data.event) {
    case 'commented':
      keys.push(ticketKeys.comments(id), ticketKeys.violations(id))
      break
    case 'sla_violated':
      keys.push(ticketKeys.violations(id))
      break
    case 'created':
      break
    default:
      // the ticket itself; a close also wrote a system comment, a move may settle violations
      keys.push(ticketKeys.one(id))
  }
  return keys
}

export function useTicketsLive(): void {
  const pending = useRef(new Map<string, readonly unknown[]>())
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
      // frames are not followed while the screen is away: what it cached is refetched when it is back
      void queryClient.invalidateQueries({ queryKey: ['tickets'], refetchType: 'none' })
    },
    [],
  )
  const flush = () => {
    timer.current = null
    const keys = [...pending.current.values()]
    pending.current.clear()
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
  }
  useHubFrames((frame: HubFrame) => {
    if (frame.type !== 'ticket') return
    const data = frame.data as Partial<TicketFrameData> | null
    if (!data?.ticket_id || !data.event) return
    for (const key of staleKeys(data as TicketFrameData)) pending.current.set(JSON.stringify(key), key)
    timer.current ??= setTimeout(flush, FLUSH_MS)
  })
  useHubResync(() => void queryClient.invalidateQueries({ queryKey: ['tickets'] }))
}
