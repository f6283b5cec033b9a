/**
 * The workspace's agents as a name directory (identity's `GET /api/agents`, which `agents.read` — every agent — may
 * read): records name people by user id, screens show their names. One cache entry for the whole console.
 */
import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import { useAuth } from './auth.tsx'
import { api, type Page } from './http.ts'

export interface DirectoryAgent {
  id: string
  user_id: string
  name: string
  status: string
}

const PAGE_SIZE = 200
/** a bound on the pages read (2,000 agents); anyone past it is shown by id */
const MAX_PAGES = 10

export const agentDirectoryKey = ['directory', 'agents'] as const

export async function listAllAgents(signal?: AbortSignal): Promise<DirectoryAgent[]> {
  const out: DirectoryAgent[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await api<Page<DirectoryAgent>>('/api/agents', { signal, query: { page, page_size: PAGE_SIZE } })
    out.push(...res.data)
    if (page >= res.pages) break
  }
  return out
}

/** Every agent of the workspace (empty while loading, or when the caller may not read the directory). */
export function useAgentDirectory(): DirectoryAgent[] {
  const { data } = useQuery({
    queryKey: agentDirectoryKey,
    queryFn: ({ signal }) => listAllAgents(signal),
    staleTime: 5 * 60_000,
    retry: false,
  })
  return data ?? []
}

/**
 * `nameOf(userId)`: the agent's display name; the signed-in user's own name for themself (an admin may hold a record
 * without being an agent); the id itself only when nobody by it is known.
 */
export function useAgentNames(): (userId: string) => string {
  const agents = useAgentDirectory()
  const { user } = useAuth()
  const byUser = useMemo(() => new Map(agents.map((a) => [a.user_id, a.name])), [agents])
  return useCallback(
    (userId: string) => {
      const name = byUser.get(userId)
      if (name) return name
      if (user && user.id === userId) return user.name || user.username
      return userId
    },
    [byUser, user],
  )
}
