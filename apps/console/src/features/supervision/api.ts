/**
 * The supervision screen's reads, through the gateway with the user's token: identity's agents (status, load and
 * capacity), conversations' waiting queue, the hub's socket counts and statistics' projection lag.
 */
import { api, type Page } from '../../lib/http.ts'

export interface SupervisedAgent {
  id: string
  user_id: string
  name: string
  /** online | busy | away | offline */
  status: string
  current_load: number
  max_concurrent: number
}

export interface WaitingItem {
  id: string
  session_id: string
  queued_at: string
  priority?: string
}

export interface Waiting {
  count: number
  items: WaitingItem[]
}

export interface SocketStats {
  connected_clients: number
  by_kind: { visitor: number; customer: number; console: number; service: number }
  sessions_with_sockets: number
}

export interface Lag {
  caught_up: boolean
  projections: { projection: string; lag_seconds: number; pending: number }[]
}

export const supervisionKeys = {
  all: ['supervision'] as const,
  agents: ['supervision', 'agents'] as const,
  waiting: ['supervision', 'waiting'] as const,
  sockets: ['supervision', 'sockets'] as const,
  lag: ['supervision', 'lag'] as const,
}

const PAGE_SIZE = 200
const MAX_PAGES = 10

/** Every agent of the workspace (`GET /api/agents`, every page up to 2,000 agents). */
export async function getAgents(signal?: AbortSignal): Promise<SupervisedAgent[]> {
  const out: SupervisedAgent[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await api<Page<SupervisedAgent>>('/api/agents', { signal, query: { page, page_size: PAGE_SIZE } })
    out.push(...res.data)
    if (page >= res.pages) break
  }
  return out
}

/** The waiting queue in queue order (`GET /api/session-transfer/waiting`); `count` is the whole queue's length. */
export const getWaiting = (signal?: AbortSignal) =>
  api<Waiting>('/api/session-transfer/waiting', { signal, query: { status: 'waiting', limit: 200 } })

/** Every replica's sockets in the caller's scope (`GET /api/v1/ws/stats?scope=cluster`, staff). */
export const getSockets = (signal?: AbortSignal) =>
  api<SocketStats>('/api/v1/ws/stats', { signal, query: { scope: 'cluster' } })

export const getLag = (signal?: AbortSignal) => api<Lag>('/api/statistics/lag', { signal })

/** The oldest `queued_at` of the items (the queue is in priority order, so not necessarily the first). */
export function oldestQueuedAt(items: readonly WaitingItem[]): string | null {
  let oldest: string | null = null
  for (const item of items)
    if (oldest === null || Date.parse(item.queued_at) < Date.parse(oldest)) oldest = item.queued_at
  return oldest
}

/** A wait in words' numbers: `m:ss`, or `h:mm:ss` past an hour. */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}
