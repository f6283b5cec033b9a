/** React bindings of the hub: its state, its frames, its resync signal, and following a conversation. */
import { useEffect, useRef, useSyncExternalStore } from 'react'
import { type HubFrame, type HubState, hub } from './hub.ts'

export function useHubState(): HubState {
  return useSyncExternalStore(
    (notify) => hub.subscribeState(notify),
    () => hub.state,
  )
}

/** Run `listener` for every frame (the latest listener is used; no re-subscription per render). */
export function useHubFrames(listener: (frame: HubFrame) => void): void {
  const ref = useRef(listener)
  ref.current = listener
  useEffect(() => hub.onFrame((frame) => ref.current(frame)), [])
}

/** Run `listener(since)` after every reconnect or wake: refetch what changed since that server time. */
export function useHubResync(listener: (since: string | null) => void): void {
  const ref = useRef(listener)
  ref.current = listener
  useEffect(() => hub.onResync((since) => ref.current(since)), [])
}

/** Follow a conversation live while the component is mounted (rejoined with `after` on every reconnect). */
export function useJoinedConversation(sessionId: string | null | undefined): void {
  useEffect(() => (sessionId ? hub.join(sessionId) : undefined), [sessionId])
}
