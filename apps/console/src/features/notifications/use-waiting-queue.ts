/** Whether the waiting queue holds anyone: one row asked of `GET /api/omni/inbox?view=waiting`, refetched on queue frames and resyncs. */
import { useQuery } from '@tanstack/react-query'
import { api } from '../../lib/http.ts'
import { useHubFrames, useHubResync } from '../../lib/hub-hooks.ts'
import { queryClient } from '../../lib/query.ts'

const KEY = ['notifications', 'waiting'] as const
const QUEUE_FRAMES = new Set(['waiting_notification', 'transfer_notification', 'session'])

export function useWaitingQueue(): boolean {
  const refetch = () => void queryClient.invalidateQueries({ queryKey: KEY })
  useHubFrames((frame) => {
    if (QUEUE_FRAMES.has(frame.type)) refetch()
  })
  useHubResync(refetch)
  const { data } = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) =>
      api<{ items: unknown[] }>('/api/omni/inbox', { signal, query: { view: 'waiting', limit: 1 } }),
    retry: false,
  })
  return (data?.items.length ?? 0) > 0
}
