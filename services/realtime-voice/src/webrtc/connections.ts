import { type Cache, inScope, newId, type Scope } from '@switchboard/platform'

/**
 * WebRTC connection state, one record per session, in the shared cache (Redis in the fleet): the two participants
 * signal through different replicas, and any replica answers `GET /api/v1/webrtc/*`. Built from the signalling
 * frames the hub relays and the `webrtc-stats` reports clients send; it expires `ttlMs` after its last change.
 *
 * Updates are read-modify-write without a lock (the cache offers none): two replicas writing at the same instant
 * keep the later one. The states converge on the next report, and each side re-adds itself as a participant on
 * every signal it sends, so a lost write is repaired by the next.
 */
export interface ConnectionParty {
  kind: string
  id: string
}

export interface ConnectionRecord {
  connection_id: string
  session_id: string
  tenant_id: string
  workspace_id: string
  participants: ConnectionParty[]
  connection_state: string
  ice_connection_state: string
  ice_gathering_state: string
  created_at: string
  updated_at: string
}

export type ConnectionStates = Partial<
  Pick<ConnectionRecord, 'connection_state' | 'ice_connection_state' | 'ice_gathering_state'>
>

export type SignalStep = 'offer' | 'answer' | 'candidate' | 'stats'

/** Most records a list answers (the newest first): a scope's live calls are far fewer. */
export const MAX_LISTED = 500

const ENDED = new Set(['closed', 'failed'])

/**
 * The states a signalling step implies (pure): an answer means the peers are connecting, a candidate that
 * gathering has begun; a client's own report (`stats`) says more and wins. Never moves a state backwards.
 */
export function statesAfter(prev: ConnectionStates, step: SignalStep, reported: ConnectionStates): ConnectionStates {
  const next = { ...prev }
  if (step === 'answer' && next.connection_state === 'new') next.connection_state = 'connecting'
  if (step === 'answer' && next.ice_connection_state === 'new') next.ice_connection_state = 'checking'
  if (step === 'candidate' && next.ice_gathering_state === 'new') next.ice_gathering_state = 'gathering'
  return { ...next, ...reported }
}

export function createConnectionStore(cache: Cache, ttlMs: number) {
  const recordKey = (sessionId: string) => `webrtc:conn:${sessionId}`
  // One index per scope level, so a scoped question reads only its own: all, a tenant, a workspace.
  const indexKey = (filter: Scope) =>
    !filter.tenant_id
      ? 'webrtc:idx'
      : filter.workspace_id
        ? `webrtc:idx:${filter.tenant_id}/${filter.workspace_id}`
        : `webrtc:idx:${filter.tenant_id}`
  const parse = (raw: string | null): ConnectionRecord | undefined =>
    raw ? (JSON.parse(raw) as ConnectionRecord) : undefined

  /** Session ids with a live record in `filter`'s index, oldest change first; stale index entries pruned. */
  async function liveIds(filter: Scope): Promise<string[]> {
    const key = indexKey(filter)
    const now = Date.now()
    await cache.zremRangeByScore(key, 0, now - ttlMs)
    return cache.zrangeByScore(key, now - ttlMs, now + ttlMs)
  }

  return {
    /** Records what a participant's signal or report says about the session's connection; answers the record. */
    async update(
      scope: Scope,
      sessionId: string,
      party: ConnectionParty,
      step: SignalStep,
      reported: ConnectionStates = {},
    ): Promise<ConnectionRecord> {
      const now = new Date()
      const prev = parse(await cache.get(recordKey(sessionId)))
      // a new offer after the last connection ended starts another connection
      const fresh = !prev || (step === 'offer' && ENDED.has(prev.connection_state))
      const base: ConnectionRecord = fresh
        ? {
            connection_id: newId(),
            session_id: sessionId,
            tenant_id: scope.tenant_id,
            workspace_id: scope.workspace_id,
            participants: [],
            connection_state: 'new',
            ice_connection_state: 'new',
            ice_gathering_state: 'new',
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          }
        : prev
      const participants = base.participants.some((p) => p.kind === party.kind && p.id === party.id)
        ? base.participants
        : [...base.participants, party]
      const record: ConnectionRecord = {
        ...base,
        ...statesAfter(base, step, reported),
        participants,
        updated_at: now.toISOString(),
      }
      await cache.set(recordKey(sessionId), JSON.stringify(record), ttlMs)
      const all = { tenant_id: '', workspace_id: '' }
      const tenant = { tenant_id: scope.tenant_id, workspace_id: '' }
      await Promise.all([all, tenant, scope].map((s) => cache.zadd(indexKey(s), now.getTime(), sessionId)))
      return record
    },

    /** The session's connection, when it lies in `filter` (anything else is as missing as none). */
    async get(sessionId: string, filter: Scope): Promise<ConnectionRecord | undefined> {
      const record = parse(await cache.get(recordKey(sessionId)))
      return record && inScope(record, filter) ? record : undefined
    },

    /** How many connections `filter` holds. */
    count: async (filter: Scope) => (await liveIds(filter)).length,

    /** The connections of `filter`, the most recently changed first, at most MAX_LISTED. */
    async list(filter: Scope): Promise<ConnectionRecord[]> {
      const ids = (await liveIds(filter)).slice(-MAX_LISTED).reverse()
      const records = await Promise.all(ids.map(async (id) => parse(await cache.get(recordKey(id)))))
      return records.filter((r): r is ConnectionRecord => r !== undefined && inScope(r, filter))
    },
  }
}

export type ConnectionStore = ReturnType<typeof createConnectionStore>
