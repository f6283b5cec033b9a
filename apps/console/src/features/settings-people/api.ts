/** Identity's staff APIs (services/identity README "Security surface" and "Operators"), through the gateway. */
import { claimsOf } from '../../lib/access.ts'
import { api, getAccessToken, type Page } from '../../lib/http.ts'

export interface AgentRecord {
  id: string
  user_id: string
  name: string
  department: string
  skills: string[]
  max_concurrent: number
  status: string
}

export interface UserState {
  user_id: string
  username: string
  name: string
  role: string
  /** for role admin: '' platform-wide, else the tenant it administers */
  admin_tenant_id?: string
  status: string
}

/** An administrator of every tenant (role admin, no tenant of its own). */
export const platformWide = (u: Pick<UserState, 'role' | 'admin_tenant_id'>) =>
  u.role === 'admin' && u.admin_tenant_id === ''

/**
 * Whether this session may make someone a platform-wide administrator: identity grants it to a caller whose token
 * is platform-wide and names no tenant (a platform administrator signed in to one tenant acts as that tenant's).
 */
export function grantsPlatformAdmin(): boolean {
  const claims = claimsOf(getAccessToken())
  return claims?.admin_reach === 'platform' && !claims.tenant_id
}

export interface Person {
  agent: AgentRecord
  user: UserState | undefined
}

export interface Created {
  user: { id: string; username: string; role: string }
  agent_id: string
  set_password: { token: string; expires_at: string; path: string } | null
}

/** The workspace's agent records, each with its user's role and status (security.read). */
export async function listPeople(): Promise<Person[]> {
  const page = await api<Page<AgentRecord>>('/api/agents', { query: { page: 1, page_size: 100 } })
  const ids = [...new Set(page.data.map((a) => a.user_id))]
  const users =
    ids.length === 0
      ? []
      : (await api<{ items: UserState[] }>('/api/security/users/query', { method: 'POST', body: { user_ids: ids } }))
          .items
  const byId = new Map(users.map((u) => [u.user_id, u]))
  return page.data.map((agent) => ({ agent, user: byId.get(agent.user_id) }))
}

export const createPerson = (body: { username: string; email: string; name: string; role: string }) =>
  api<Created>('/api/security/users', { method: 'POST', body })

export const updateAgent = (id: string, body: { department: string; skills: string[]; max_concurrent: number }) =>
  api<AgentRecord>(`/api/agents/${encodeURIComponent(id)}`, { method: 'PUT', body })

/** A new role; `platformAdmin` (role admin only) asks for a platform-wide administrator. */
export const changeRole = (userId: string, role: string, platformAdmin = false) =>
  api<unknown>(`/api/security/users/${encodeURIComponent(userId)}/role`, {
    method: 'PUT',
    body: role === 'admin' && platformAdmin ? { role, platform_admin: true } : { role },
  })

export const setStatus = (userId: string, status: 'active' | 'inactive') =>
  api<unknown>(`/api/security/users/${encodeURIComponent(userId)}/status`, { method: 'PUT', body: { status } })

export const revokeSessions = (userId: string) =>
  api<unknown>(`/api/security/users/${encodeURIComponent(userId)}/sessions/revoke-all`, {
    method: 'POST',
    body: { reason: 'console' },
  })
