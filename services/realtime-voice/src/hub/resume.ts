import type { Scope } from '@switchboard/platform'
import { SeqWindow } from '../domain/seq-window.ts'
import { messageFrame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { type Client, send, type Track } from './registry.ts'
import { RefusedError } from './upstream.ts'

/** conversations' largest page */
const PAGE = 200
/** a resume sends at most this many missed messages, and counts at most this far back (50 pages each way) */
const MAX_MESSAGES = 10_000

/**
 * Sends a joining socket what it missed after message `after`, in order, and sets the track's window so that the
 * live frames held meanwhile — and every later one — go out only when not sent already.
 *
 * No gap: the track holds the session's live frames from before this runs (registry `hold`), so any message
 * committed after the history is read reaches the buffer. No duplicate: history frames carry their `seq`; the
 * window starts at the last of them, and buffered or late frames at or below it (or sent once) are dropped.
 *
 * conversations lists messages without their `seq` (only its events carry it), so the position of `after` is
 * counted: the messages before it, a page of 200 at a time (usually one call). Positions have no holes (1, 2, …
 * under the session's lock), so the history's seqs follow from it.
 */
export async function resume(h: HubContext, c: Client, track: Track, after: string, scope: Scope): Promise<void> {
  const sessionId = track.session.id
  let before = 0
  for (let cursor = after; ; ) {
    const page = await h.api
      .messages(sessionId, { before: cursor }, PAGE, scope)
      .catch((err) => Promise.reject(cursor === after ? unknownPoint(err, after) : err))
    before += page.length
    if (page.length < PAGE) break
    if (before >= MAX_MESSAGES) throw tooFar()
    cursor = page[0]!.id
  }
  const missed = []
  for (let cursor = after; ; ) {
    const page = await h.api.messages(sessionId, { after: cursor }, PAGE, scope)
    missed.push(...page)
    if (page.length < PAGE) break
    if (missed.length >= MAX_MESSAGES) throw tooFar()
    cursor = page[page.length - 1]!.id
  }
  let seq = before + 1
  for (const m of missed) send(c, messageFrame(m, ++seq))
  track.sent = new SeqWindow(seq)
}

// Sending part of the history would leave a gap the client cannot see: it is told instead, and reloads.
const tooFar = () =>
  new RefusedError({
    status: 400,
    code: 'REALTIME_RESUME_TOO_FAR',
    message: `a resume reaches at most ${MAX_MESSAGES} messages back; join without \`after\` and page the history`,
  })

// conversations' 400 names its own query parameter; the client is told in its own terms. It stays joined from now
// (live frames flow), without the history it asked for.
const unknownPoint = (err: unknown, after: string) =>
  err instanceof RefusedError && err.refusal.status === 400
    ? new RefusedError({
        status: 400,
        code: 'REALTIME_RESUME_UNKNOWN_MESSAGE',
        message: `no message ${after} in this session: joined from now without history; page it over HTTP or join without \`after\``,
      })
    : err
