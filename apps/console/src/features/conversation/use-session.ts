/** The session record, refetched when the hub says it changed (status, hand-over). */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { hub } from '../../lib/hub.ts'
import { getSession, keys } from './api.ts'

const SESSION_FRAMES = new Set(['session', 'transfer_notification', 'waiting_notification'])

export function useSession(sessionId: string) {
  const client = useQueryClient()
  useEffect(
    () =>
      hub.onFrame((frame) => {
        if (frame.session_id !== sessionId) return
        // a system message accompanies every hand-over and close: either says the record moved on
        if (SESSION_FRAMES.has(frame.type) || frame.type === 'system') {
          void client.invalidateQueries({ queryKey: keys.session(sessionId), exact: true })
        }
      }),
    [sessionId, client],
  )
  return useQuery({ queryKey: keys.session(sessionId), queryFn: () => getSession(sessionId) })
}
