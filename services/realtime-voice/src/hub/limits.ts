/**
 * A socket's budgets (README "Limits"): frames per second (beyond it an `error` frame, then 1008) and typing /
 * read signals per second (beyond it they are dropped). Fixed one-second windows, as the gateway counts its own
 * per-connection budget (gateway/src/websocket/relay.ts): cheap, and a burst at a window's edge is harmless here.
 */
export function overBudget(perSecond: number, now: () => number = Date.now): () => boolean {
  let windowStart = 0
  let count = 0
  return () => {
    const t = now()
    if (t - windowStart >= 1000) {
      windowStart = t
      count = 0
    }
    return ++count > perSecond
  }
}

/** Close codes (RFC 6455 §7.4.1), as the gateway uses them and relays them to the client. */
export const CLOSE = {
  /** the hub shuts down: reconnect (to another replica) and resume */
  goingAway: 1001,
  /** past the frame budget, or too many frames waiting */
  policy: 1008,
  /** a frame over the size limit (ws closes with it itself) */
  tooBig: 1009,
  /** the hub failed unexpectedly */
  internal: 1011,
} as const

/**
 * Frames of one socket waiting to be handled, at most: a client that sends within its rate but faster than the
 * hub's calls to conversations answer would otherwise grow the queue without bound.
 */
export const MAX_PENDING_FRAMES = 64
