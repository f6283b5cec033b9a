import type { Claims } from '@switchboard/auth'
import type { DeniedToken, PrincipalKind, ScopeStatus, SessionTokenState, UserTokenState } from '@switchboard/contracts'
import type { Cache, Logger } from '@switchboard/platform'
import type { GatewayConfig } from '../config.ts'
import { evaluate } from './evaluate.ts'
import type { IdentityClient, TokenStateResponse } from './identity-client.ts'
import { createLocalStore } from './local-store.ts'
import { createSharedStore } from './shared-store.ts'

export type Check = { ok: true } | { ok: false; message: string }

export class TokenStateUnavailableError extends Error {
  override name = 'TokenStateUnavailableError'
}

/** A stale-claim refetch for one user/session key at most this often: a token can't make us hammer identity. */
const REFETCH_INTERVAL_MS = 1000

export interface TokenStateDeps {
  config: GatewayConfig['token_state']
  cache: Cache
  identity: IdentityClient
  logger: Logger
}

/**
 * Token acceptance without a database query: local LRU → shared cache (Redis) → identity on a miss.
 * Fed by identity's events (apply*), so in steady state no request reaches identity.
 */
export function createTokenState(deps: TokenStateDeps) {
  const { config, identity, logger } = deps
  const local = createLocalStore({
    max: config.local_max_entries,
    ttlMs: config.local_ttl_ms,
    negativeTtlMs: config.negative_ttl_ms,
  })
  const shared = createSharedStore(deps.cache, config.shared_ttl_ms)
  const inflight = new Map<string, Promise<TokenStateResponse>>()
  const lastRefetch = new Map<string, number>()
  let deniedLoaded = false
  let resync: NodeJS.Timeout | undefined
  /** disabled tenants (`t`) and workspaces (`t/w`): few, so every replica holds them all, from identity */
  let disabled = new Set<string>()
  const scopeKey = (s: Pick<ScopeStatus, 'tenant_id' | 'workspace_id'>) =>
    s.workspace_id ? `${s.tenant_id}/${s.workspace_id}` : s.tenant_id

  const holdMs = config.denied_resync_ms * 2
  /** told the user id after each change applied from identity (open WebSockets re-check their token) */
  const listeners = new Set<(userId: string) => void>()
  const changed = (userId: string) => {
    for (const listener of listeners) listener(userId)
  }

  async function writeShared(fn: () => Promise<unknown>) {
    await fn().catch((err: unknown) => logger.warn({ err }, 'token state: shared cache write failed'))
  }

  function storeFetched(userId: string, sessionId: string, r: TokenStateResponse) {
    local.putUser(userId, r.user)
    if (r.user) void writeShared(() => shared.putUser(r.user!))
    if (sessionId) {
      local.putSession(sessionId, r.session)
      if (r.session) void writeShared(() => shared.putSession(r.session!))
    }
  }

  function fetchOnce(userId: string, sessionId: string): Promise<TokenStateResponse> {
    const key = `${userId}\n${sessionId}`
    let p = inflight.get(key)
    if (!p) {
      p = identity
        .fetchState(userId, sessionId)
        .then((r) => {
          storeFetched(userId, sessionId, r)
          return r
        })
        .catch((err: unknown) => {
          logger.error({ err }, 'token state: identity fetch failed')
          throw new TokenStateUnavailableError('identity did not answer', { cause: err })
        })
        .finally(() => inflight.delete(key))
      inflight.set(key, p)
    }
    return p
  }

  async function fromShared<T>(get: () => Promise<T | null>): Promise<T | null> {
    return get().catch((err: unknown) => {
      logger.warn({ err }, 'token state: shared cache read failed')
      return null
    })
  }

  async function lookup(userId: string, sessionId: string) {
    let user = local.getUser(userId)
    let session = sessionId ? local.getSession(sessionId) : { state: null }
    if (!user) {
      const s = await fromShared(() => shared.getUser(userId))
      if (s) local.putUser(userId, s)
      user = s ? { state: s } : undefined
    }
    if (!session) {
      const s = await fromShared(() => shared.getSession(sessionId))
      if (s) local.putSession(sessionId, s)
      session = s ? { state: s } : undefined
    }
    if (user && session) return { user: user.state, session: session.state, fetched: false }
    const r = await fetchOnce(userId, sessionId)
    return { user: r.user, session: r.session, fetched: true }
  }

  /**
   * Redis (already loaded by a replica) or identity, then the shared set into the local one. A cache
   * outage must not stop the gateway from using the list it just got from identity.
   */
  async function loadDenied() {
    // Disabled scopes are loaded with the denylist and, like it, before any token is accepted.
    const scopes = await identity.fetchDisabledScopes()
    disabled = new Set(scopes.filter((x) => !x.active).map(scopeKey))
    const alreadyShared = await shared.deniedLoaded().catch(() => false)
    if (!alreadyShared) {
      const items = await identity.fetchDenied()
      for (const d of items) await applyDenied(d)
      await writeShared(() => shared.markDeniedLoaded(config.shared_ttl_ms))
      logger.info({ count: items.length }, 'token state: denylist loaded from identity')
    }
    const fromShared = await shared.deniedNow(holdMs).catch((err: unknown) => {
      if (alreadyShared) throw err
      logger.warn({ err }, "token state: shared denylist unreadable, using identity's list")
      return []
    })
    for (const [jti, exp] of fromShared) local.deny(jti, exp)
    local.pruneDenied()
    deniedLoaded = true
  }

  let loading: Promise<void> | undefined
  /** One load at a time, however many requests arrive before the first one finished. */
  function ensureDenied(): Promise<void> {
    loading ??= loadDenied().finally(() => {
      loading = undefined
    })
    return loading
  }

  async function applyDenied(d: DeniedToken) {
    const exp = Date.parse(d.expires_at)
    if (!Number.isFinite(exp)) return
    local.deny(d.jti, exp)
    changed(d.user_id)
    await writeShared(() => shared.deny(d.jti, exp))
  }

  return {
    async start() {
      await ensureDenied().catch((err: unknown) => logger.error({ err }, 'token state: denylist not loaded yet'))
      resync = setInterval(() => {
        ensureDenied().catch((err: unknown) => logger.warn({ err }, 'token state: denylist resync failed'))
      }, config.denied_resync_ms)
      resync.unref()
    },
    stop() {
      if (resync) clearInterval(resync)
    },
    ready: () => deniedLoaded,

    async check(claims: Claims, kind: PrincipalKind): Promise<Check> {
      // Fail closed: without the denylist a revoked token could pass.
      if (!deniedLoaded)
        await ensureDenied().catch((err: unknown) => {
          throw new TokenStateUnavailableError('denylist not loaded', { cause: err })
        })
      if (local.isDenied(claims.jti)) return { ok: false, message: 'token revoked' }
      if (claims.tenant_id && disabled.size > 0) {
        if (disabled.has(claims.tenant_id)) return { ok: false, message: 'tenant is disabled' }
        if (disabled.has(`${claims.tenant_id}/${claims.workspace_id}`))
          return { ok: false, message: 'workspace is disabled' }
      }
      const { user, session, fetched } = await lookup(claims.user_id, claims.session_id)
      let verdict = evaluate(claims, kind, user, session)
      // Straight from identity already: a still newer token can't be explained by a stale cache.
      if (verdict.kind === 'stale' && !fetched) {
        const key = `${claims.user_id}\n${claims.session_id}`
        const last = lastRefetch.get(key) ?? 0
        if (Date.now() - last >= REFETCH_INTERVAL_MS) {
          lastRefetch.set(key, Date.now())
          if (lastRefetch.size > 10_000) lastRefetch.clear()
          const fresh = await fetchOnce(claims.user_id, claims.session_id)
          verdict = evaluate(claims, kind, fresh.user, fresh.session)
        }
      }
      if (verdict.kind === 'ok') return { ok: true }
      return {
        ok: false,
        message: verdict.kind === 'stale' ? 'token is newer than the known token state' : verdict.message,
      }
    },

    async applyUser(s: UserTokenState) {
      local.putUser(s.user_id, s)
      changed(s.user_id)
      await writeShared(() => shared.putUser(s))
    },
    async applySession(s: SessionTokenState) {
      local.putSession(s.session_id, s)
      changed(s.user_id)
      await writeShared(() => shared.putSession(s))
    },
    applyDenied,
    /** A tenant or workspace enabled or disabled: every socket is re-checked (`'*'` to the listeners). */
    applyScope(s: ScopeStatus) {
      if (s.active) disabled.delete(scopeKey(s))
      else disabled.add(scopeKey(s))
      changed('*')
    },
    /** Calls `listener(user_id)` (`'*'`: any user) after every change applied from identity's events; returns the unsubscribe. */
    onChange(listener: (userId: string) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
export type TokenState = ReturnType<typeof createTokenState>
