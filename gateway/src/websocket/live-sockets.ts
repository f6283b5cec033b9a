import type { Claims } from '@switchboard/auth'
import type { PrincipalKind } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import type WebSocket from 'ws'
import type { TokenState } from '../token-state/token-state.ts'

/** Close codes the gateway uses (RFC 6455 §7.4.1); 4401 is ours, in the range for applications. */
export const CLOSE = {
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  tryAgain: 1013,
  tokenEnded: 4401,
} as const

export interface LiveSocket {
  client: WebSocket
  upstream: WebSocket
  /** absent for an anonymous connection */
  claims?: Claims
  kind?: PrincipalKind
}

/** Timers are clamped: setTimeout wraps past 2^31-1 ms. */
const MAX_TIMER_MS = 2_147_483_647

/**
 * The open connections of this replica. An authenticated one lives only as long as its token would be
 * accepted on a request: it is closed (4401) when the token expires, and re-checked whenever identity's
 * events change its user's token state (revocation, deactivation, logout).
 */
export function createLiveSockets(tokenState: TokenState, logger: Logger, pingIntervalMs: number) {
  const all = new Set<LiveSocket>()
  /** sides that have not answered the last ping yet */
  const silent = new WeakSet<WebSocket>()
  const byUser = new Map<string, Set<LiveSocket>>()
  const expiry = new Map<LiveSocket, NodeJS.Timeout>()

  function end(live: LiveSocket, code: number, reason: string) {
    if (live.client.readyState === live.client.OPEN) live.client.close(code, reason)
    if (live.upstream.readyState === live.upstream.OPEN) live.upstream.close(CLOSE.goingAway, 'client gone')
  }

  async function recheck(live: LiveSocket) {
    if (!live.claims || !live.kind) return
    const verdict = await tokenState.check(live.claims, live.kind).catch(() => undefined)
    // Unknown (token state unreachable) keeps the connection: requests would get 503, not 401.
    if (verdict && !verdict.ok) end(live, CLOSE.tokenEnded, verdict.message)
  }

  const unsubscribe = tokenState.onChange((userId) => {
    const set = byUser.get(userId)
    if (!set) return
    for (const live of set) {
      recheck(live).catch((err: unknown) => logger.warn({ err }, 'websocket: token re-check failed'))
    }
  })

  // A peer that vanished without a close frame (a dropped Wi-Fi, a killed pod) is found by its missing pong.
  const heartbeat = setInterval(() => {
    for (const live of all) {
      for (const side of [live.client, live.upstream]) {
        if (side.readyState !== side.OPEN) continue
        if (silent.has(side)) {
          side.terminate()
          continue
        }
        silent.add(side)
        side.ping()
      }
    }
  }, pingIntervalMs)
  heartbeat.unref()

  return {
    get size() {
      return all.size
    },
    add(live: LiveSocket) {
      all.add(live)
      for (const side of [live.client, live.upstream]) side.on('pong', () => silent.delete(side))
      if (!live.claims) return
      const userId = live.claims.user_id
      const set = byUser.get(userId) ?? new Set<LiveSocket>()
      byUser.set(userId, set)
      set.add(live)
      const ms = Math.min(live.claims.exp * 1000 - Date.now(), MAX_TIMER_MS)
      const timer = setTimeout(() => end(live, CLOSE.tokenEnded, 'token expired'), Math.max(0, ms))
      timer.unref()
      expiry.set(live, timer)
    },
    delete(live: LiveSocket) {
      all.delete(live)
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
