/**
 * A conversation's messages: history from the newest page (older pages on demand, `before` the oldest held), then
 * live frames from the hub, joined with `after` = the newest message the history gave, so the hub resumes from
 * there without gap or duplicate. One cache entry (TanStack Query's infinite query, newest page first); frames are
 * written into it and deduplicated by id, which also absorbs a reply coming back as a frame after its POST.
 */
import { type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { type HubFrame, hub, MESSAGE_FRAME_TYPES, type MessageFrameData } from '../../lib/hub.ts'
import { getMessages, keys, PAGE_SIZE } from './api.ts'
import type { Message, MessagePage, Sender } from './types.ts'

type Pages = InfiniteData<MessagePage, string | undefined>

export function frameToMessage(frame: HubFrame<MessageFrameData>): Message {
  const d = frame.data
  return {
    id: d.message_id,
    session_id: frame.session_id ?? '',
    sender: d.sender as Sender,
    sender_id: d.sender_id,
    kind: d.kind,
    content: d.content,
    metadata: d.metadata ?? null,
    created_at: d.created_at,
    visibility: (d as { visibility?: string }).visibility === 'internal' ? 'internal' : 'public',
  }
}

/** Adds `message` to the newest page unless a page holds it already. */
export function withMessage(old: Pages | undefined, message: Message): Pages | undefined {
  if (!old || old.pages.length === 0) return old
  if (old.pages.some((p) => p.items.some((m) => m.id === message.id))) return old
  const [newest, ...rest] = old.pages
  return { ...old, pages: [{ count: newest!.count + 1, items: [...newest!.items, message] }, ...rest] }
}

export function useMessages(sessionId: string) {
  const client = useQueryClient()
  const query = useInfiniteQuery({
    queryKey: keys.messages(sessionId),
    queryFn: ({ pageParam }) => getMessages(sessionId, pageParam),
    initialPageParam: undefined as string | undefined,
    // the next page is the older one: before the oldest message held, while pages come back full
    getNextPageParam: (last) => (last.items.length < PAGE_SIZE ? undefined : last.items[0]?.id),
    // the hub keeps it current (and resumes after a reconnect); a refetch would only repeat what is held
    staleTime: Number.POSITIVE_INFINITY,
  })

  const loaded = query.data !== undefined

  useEffect(() => {
    if (!loaded) return
    // joined once per view, after the newest message the history gave; later frames move the hub's resume point
    const held = client.getQueryData<Pages>(keys.messages(sessionId))
    const resumeAfter = held?.pages[0]?.items.at(-1)?.id ?? null
    const stopFrames = hub.onFrame((frame) => {
      if (frame.session_id !== sessionId || !MESSAGE_FRAME_TYPES.has(frame.type)) return
      const data = frame.data as Partial<MessageFrameData>
      if (!data?.message_id || (data as { partial?: boolean }).partial) return
      const message = frameToMessage(frame as HubFrame<MessageFrameData>)
      client.setQueryData<Pages>(keys.messages(sessionId), (old) => withMessage(old, message))
    })
    const leave = hub.join(sessionId, resumeAfter)
    return () => {
      stopFrames()
      leave()
    }
  }, [sessionId, loaded, client])

  const messages = useMemo(
    () => (query.data ? [...query.data.pages].reverse().flatMap((p) => p.items) : []),
    [query.data],
  )

  return {
    messages,
    isLoading: query.isLoading,
    error: query.error,
    hasOlder: query.hasNextPage,
    loadingOlder: query.isFetchingNextPage,
    loadOlder: () => query.fetchNextPage(),
    add: (message: Message) => client.setQueryData<Pages>(keys.messages(sessionId), (old) => withMessage(old, message)),
  }
}
