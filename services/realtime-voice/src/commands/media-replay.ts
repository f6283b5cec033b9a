import type { StoredMediaEvent } from '../db/media-events.repository.ts'

/**
 * A replay of the latest media event of its kind: same track, same recording, and the same `occurred_at` (which only
 * a client that sends it can be told apart by; without it every event is a new one).
 */
export function isMediaReplay(
  incoming: { track_id: string | null; recording_id: string | null; occurred_at: string | undefined },
  last: Pick<StoredMediaEvent, 'track_id' | 'recording_id' | 'occurred_at' | 'occurred_at_given'> | undefined,
): boolean {
  return (
    last !== undefined &&
    incoming.occurred_at !== undefined &&
    last.occurred_at_given &&
    last.occurred_at === incoming.occurred_at &&
    last.track_id === incoming.track_id &&
    last.recording_id === incoming.recording_id
  )
}
