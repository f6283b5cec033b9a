/** The signed-in agent's own record and presence: identity's `GET /api/agents/me`, `PUT /api/agents/me/status`. */
import { api } from '../../lib/http.ts'

export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const
export type Presence = (typeof PRESENCE_STATUSES)[number]

export interface OwnAgent {
  id: string
  /** `busy` is set by operators; the control shows the three an agent chooses */
  status: string
}

export const presenceKey = ['presence', 'me'] as const

export const fetchOwnAgent = (signal?: AbortSignal) => api<OwnAgent>('/api/agents/me', { signal })

export const setOwnStatus = (status: Presence) =>
  api<OwnAgent>('/api/agents/me/status', { method: 'PUT', body: { status } })
