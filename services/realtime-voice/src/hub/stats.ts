import { SOCKET_MODES, type SocketMode } from '@switchboard/contracts'
import { inScope, type Scope } from '@switchboard/platform'
import type { HubContext } from './hub-context.ts'
import type { Client } from './registry.ts'

/**
 * Connected sockets, counted per replica in memory, by kind and by scope (a staff caller sees only its scope's).
 * Each replica writes its counts to the shared cache every `stats_interval_ms` with a TTL of three intervals;
 * `scope=cluster` sums the replicas whose counts are live (a replica that died drops out within the TTL).
 */

export type ByKind = Record<SocketMode, number>

/** One scope's counts on one replica. */
export interface ScopeCounts {
  by_kind: ByKind
  sessions: number
}

/** What a replica publishes: its counts per scope (`tenant/workspace`, `/` for sockets without a scope). */
export interface ReplicaSnapshot {
  replica: string
  at: string
  scopes: Record<string, ScopeCounts>
}

export interface Counts {
  connected_clients: number
  by_kind: ByKind
  sessions_with_sockets: number
}

const REPLICAS = 'hub:replicas'
const replicaKey = (id: string) => `hub:replica:${id}`
const emptyKinds = (): ByKind => Object.fromEntries(SOCKET_MODES.map((m) => [m, 0])) as ByKind
const keyOf = (s: Scope) => `${s.tenant_id}/${s.workspace_id}`
const scopeOfKey = (key: string): Scope => {
  const [tenant_id = '', workspace_id = ''] = key.split('/')
  return { tenant_id, workspace_id }
}

/** The scope a socket is counted in: its own, else the session it is in (a visitor that named no widget scope). */
function countedScope(c: Client): Scope {
  if (c.scope.tenant_id) return c.scope
  const track = c.current ? c.tracks.get(c.current) : undefined
  return track?.session.tenant_id
    ? { tenant_id: track.session.tenant_id, workspace_id: track.session.workspace_id }
    : c.scope
}

/** This replica's counts per scope, now. */
export function snapshot(h: HubContext): ReplicaSnapshot {
  const scopes: Record<string, ScopeCounts> = {}
  const sessions = new Map<string, Set<string>>()
  const at = (key: string) => (scopes[key] ??= { by_kind: emptyKinds(), sessions: 0 })
  for (const c of h.registry.all()) {
    const key = keyOf(countedScope(c))
    at(key).by_kind[c.mode]++
    for (const [id, t] of c.tracks) {
      if (!t.joined || t.role === 'pending') continue
      const sKey = keyOf(t.session)
      at(sKey)
      const set = sessions.get(sKey) ?? new Set<string>()
      sessions.set(sKey, set)
      set.add(id)
    }
  }
  for (const [key, set] of sessions) at(key).sessions = set.size
  return { replica: h.replica, at: new Date().toISOString(), scopes }
}

/** The counts of a snapshot that lie in `filter`. */
export function countsIn(snap: ReplicaSnapshot, filter: Scope): Counts {
  const out: Counts = { connected_clients: 0, by_kind: emptyKinds(), sessions_with_sockets: 0 }
  for (const [key, counts] of Object.entries(snap.scopes)) {
    // a socket without a scope is only an unscoped caller's to count
    const scope = scopeOfKey(key)
    if (filter.tenant_id && !scope.tenant_id) continue
    if (!inScope(scope, filter)) continue
    for (const m of SOCKET_MODES) {
      out.by_kind[m] += counts.by_kind[m]
      out.connected_clients += counts.by_kind[m]
    }
    out.sessions_with_sockets += counts.sessions
  }
  return out
}

export async function publishSnapshot(h: HubContext): Promise<void> {
  const ttl = h.config.websocket.stats_interval_ms * 3
  const now = Date.now()
  await h.cache.set(replicaKey(h.replica), JSON.stringify(snapshot(h)), ttl)
  await h.cache.zadd(REPLICAS, now, h.replica)
  await h.cache.zremRangeByScore(REPLICAS, 0, now - ttl)
}

export async function withdrawSnapshot(h: HubContext): Promise<void> {
  await h.cache.del(replicaKey(h.replica))
}

/** Every live replica's counts (this one's as of now, the others' as last published), each within `filter`. */
export async function clusterCounts(h: HubContext, filter: Scope) {
  const ttl = h.config.websocket.stats_interval_ms * 3
  const now = Date.now()
  const ids = new Set(await h.cache.zrangeByScore(REPLICAS, now - ttl, now + ttl))
  ids.delete(h.replica)
  const others = await Promise.all(
    [...ids].map(async (id) => {
      const raw = await h.cache.get(replicaKey(id))
      return raw ? (JSON.parse(raw) as ReplicaSnapshot) : undefined
    }),
  )
  const snaps = [snapshot(h), ...others.filter((s): s is ReplicaSnapshot => s !== undefined)]
  return snaps.map((s) => ({ replica: s.replica, updated_at: s.at, ...countsIn(s, filter) }))
}
