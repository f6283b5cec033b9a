import type { Claims } from '@switchboard/auth'
import type { PrincipalKind } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import type WebSocket from 'ws'
import type { TokenState } from '../token-state/token-state.ts'

/** Close codes the gateway uses (RFC 6455 §7.4.1); 4401 is ours, in the range for applications. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  tokenEnded: 4401,
} as const

export interface LiveSocket {
  client: WebSocket
  upstream: WebSocket
  /** user id, or the client address when anonymous: the per-client cap counts by it */
  clientKey: string
  /** absent for an anonymous connection */
  claims?: Claims
  kind?: PrincipalKind
}

/** Timers are clamped: setTimeout wraps past 2^31-1 ms (a longer wait is re-armed). */
const MAX_TIMER_MS = 2_147_483_647
/** A close reason travels in a control frame: 123 bytes at most. */
const MAX_REASON_BYTES = 123

/** Closes one side; a side paused for backpressure is resumed first, or its peer's close frame is never read. */
export function closeSide(side: WebSocket, code: number, reason: string) {
  if (side.readyState !== side.OPEN) return
  if (side.isPaused) side.resume()
  side.close(code, Buffer.from(reason).subarray(0, MAX_REASON_BYTES).toString())
}

/**
 * The open connections of this replica. An authenticated one lives only as long as its token would be
 * accepted on a request: it is closed (4401) when the token expires, and re-checked when identity's
 * events change its user's token state (revocation, deactivation, logout), when it joins (an event may
 * have come during its handshake) and on every heartbeat (a replica that missed an event converges, as
 * its requests do through the token-state TTLs).
 */
export function createLiveSockets(tokenState: TokenState, logger: Logger, pingIntervalMs: number) {
  const all = new Set<LiveSocket>()
  /** sides that have not answered the last ping yet */
  const silent = new WeakSet<WebSocket>()
  const byUser = new Map<string, Set<LiveSocket>>()
  const perClient = new Map<string, number>()
  const expiry = new Map<LiveSocket, NodeJS.Timeout>()

  function end(live: LiveSocket, code: number, reason: string) {
    closeSide(live.client, code, reason)
    closeSide(live.upstream, CLOSE.goingAway, 'client gone')
  }

  function recheck(live: LiveSocket) {
    if (!live.claims || !live.kind) return
    tokenState.check(live.claims, live.kind).then(
      // Unknown (token state unreachable) keeps the connection: requests would get 503, not 401.
      (verdict) => {
        if (!verdict.ok) end(live, CLOSE.tokenEnded, verdict.message)
      },
      (err: unknown) => logger.warn({ err }, 'websocket: token re-check failed'),
    )
  }

  function armExpiry(live: LiveSocket) {
    const left = live.claims!.exp * 1000 - Date.now()
    const timer = setTimeout(
      () => (left > MAX_TIMER_MS ? armExpiry(live) : end(live, CLOSE.tokenEnded, 'token expired')),
      Math.max(0, Math.min(left, MAX_TIMER_MS)),
    )
    timer.unref()
    expiry.set(live, timer)
  }

  const unsubscribe = tokenState.onChange((userId) => {
    for (const live of userId === '*' ? all : (byUser.get(userId) ?? [])) recheck(live)
  })

  // A peer that vanished without a close frame (a dropped Wi-Fi, a killed pod) is found by its missing pong.
  // A side the relay paused for backpressure is not read, so its pongs can't arrive: it is left alone.
  const heartbeat = setInterval(() => {
    for (const live of all) {
      for (const side of [live.client, live.upstream]) {
        if (side.readyState !== side.OPEN || side.isPaused) continue
        if (silent.has(side)) {
          side.terminate()
          continue
        }
        silent.add(side)
        side.ping()
      }
      recheck(live)
    }
  }, pingIntervalMs)
  heartbeat.unref()

  return {
    get size() {
      return all.size
    },
    /** open connections of one client (user id or anonymous address) */
    countOf(clientKey: string) {
      return perClient.get(clientKey) ?? 0
    },
    add(live: LiveSocket) {
      all.add(live)
      perClient.set(live.clientKey, (perClient.get(live.clientKey) ?? 0) + 1)
      for (const side of [live.client, live.upstream]) side.on('pong', () => silent.delete(side))
      if (!live.claims) return
      const userId = live.claims.user_id
      const set = byUser.get(userId) ?? new Set<LiveSocket>()
      byUser.set(userId, set)
      set.add(live)
      armExpiry(live)
      recheck(live)
    },
    delete(live: LiveSocket) {
      if (!all.delete(live)) return
      const n = (perClient.get(live.clientKey) ?? 1) - 1
      if (n > 0) perClient.set(live.clientKey, n)
      else perClient.delete(live.clientKey)
      clearTimeout(expiry.get(live))
      expiry.delete(live)
      if (!live.claims) return
      const set = byUser.get(live.claims.user_id)
      set?.delete(live)
      if (set?.size === 0) byUser.delete(live.claims.user_id)
    },
    /** On shutdown: every client is told to reconnect (to another replica). */
    closeAll(reason: string) {
      unsubscribe()
      clearInterval(heartbeat)
      for (const live of all) end(live, CLOSE.goingAway, reason)
    },
  }
}
export type LiveSockets = ReturnType<typeof createLiveSockets>
