import type { Scope } from '@switchboard/platform'
import { SeqWindow } from '../domain/seq-window.ts'
import { messageFrame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { type Client, isStaff, send, type Track } from './registry.ts'
import { RefusedError } from './upstream.ts'

/** conversations' largest page */
const PAGE = 200
/** a resume sends at most this many missed messages (50 pages) */
const MAX_MESSAGES = 10_000

/**
 * Sends a joining socket what it missed after message `after`, in order, and sets the track's window so that the
 * live frames held meanwhile — and every later one — go out only when not sent already.
 *
 * No gap: the track holds the session's live frames from before this runs (registry `hold`), so any message
 * committed after the history is read reaches the buffer. No duplicate: history frames carry their `seq`; the
 * window starts at the last of them, and buffered or late frames at or below it (or sent once) are dropped; a
 * history message the socket was already sent in this session (a console following it live) is not sent again.
 *
 * What is read is what the socket may see: a customer's or visitor's resume asks conversations for public
 * messages only, so an internal note is never in it (its position is a hole the window skips); a console's or
 * service's asks for every message (`visibility=all`). Each message carries its `seq`. When nothing was missed
 * the window starts at `after`'s own position: the session's latest message the socket may see, read *before*
 * the messages after `after` — were it read after them, a message committed in between would be taken as sent.
 */
export async function resume(
  h: HubContext,
  c: Client,
  track: Track,
  after: string,
  scope: Scope,
  /** the window of what this socket was sent in the session before it joined (a console following it live) */
  sentBefore: SeqWindow = track.sent,
): Promise<void> {
  const sessionId = track.session.id
  const visibility = isStaff(c) ? 'all' : 'public'
  const latest = await h.api.messages(sessionId, {}, 1, scope, visibility)
  const missed = []
  for (let cursor = after; ; ) {
    const page = await h.api
      .messages(sessionId, { after: cursor }, PAGE, scope, visibility)
      .catch((err) => Promise.reject(cursor === after ? unknownPoint(err, after) : err))
    missed.push(...page)
    if (page.length < PAGE) break
    if (missed.length >= MAX_MESSAGES) throw tooFar()
    cursor = page[page.length - 1]!.id
  }
  // nothing missed: `after` was the latest then (it exists, or the read above refused it), so it is `latest[0]`
  const floor = missed.length > 0 ? missed[missed.length - 1]!.seq : latest[0]?.seq
  // a console that followed the session (it is assigned to its agent) may have had some of these live on this very
  // socket before its join was handled: they are not sent twice (the chaos bench saw it after a reconnect)
  for (const m of missed) if (!sentBefore.sent(m.seq)) send(c, messageFrame(m, m.seq))
  track.sent = new SeqWindow(floor)
}

// Sending part of the history would leave a gap the client cannot see: it is told instead, and reloads.
const tooFar = () =>
  new RefusedError({
    status: 400,
    code: 'REALTIME_RESUME_TOO_FAR',
    message: `a resume reaches at most ${MAX_MESSAGES} messages back; join without \`after\` and page the history`,
  })

// conversations' 400 names its own query parameter; the client is told in its own terms. It stays joined from now
// (live frames flow), without the history it asked for. A customer naming a note's id is told the same: for it,
// the session holds no such message.
const unknownPoint = (err: unknown, after: string) =>
  err instanceof RefusedError && err.refusal.status === 400
    ? new RefusedError({
        status: 400,
        code: 'REALTIME_RESUME_UNKNOWN_MESSAGE',
        message: `no message ${after} in this session: joined from now without history; page it over HTTP or join without \`after\``,
      })
    : err
