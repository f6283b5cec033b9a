/** This feature's calls to the API (through the gateway), and the query keys their answers live under. */
import { ApiError, api, getAccessToken, refreshAccessToken } from '../../lib/http.ts'
import type { AgentRecord, Message, MessagePage, Session, Upload } from './types.ts'

export const PAGE_SIZE = 50

export const keys = {
  session: (id: string) => ['conversation', id] as const,
  messages: (id: string) => ['conversation', id, 'messages'] as const,
  agents: ['agents', 'all'] as const,
  suggest: (id: string, query: string) => ['conversation', id, 'suggest', query] as const,
}

const sessionPath = (id: string) => `/api/omni/sessions/${encodeURIComponent(id)}`

export const getSession = (id: string) => api<Session>(sessionPath(id))

/** The newest page when `before` is absent, else the page just before that message. */
export const getMessages = (id: string, before?: string) =>
  api<MessagePage>(`${sessionPath(id)}/messages`, { query: { limit: PAGE_SIZE, before } })

export const postMessage = (
  id: string,
  body: { content: string; kind?: string; metadata?: object; internal?: boolean },
) => api<Message>(`${sessionPath(id)}/messages`, { body })

export const assign = (id: string, agentId: string) =>
  api<Session>(`${sessionPath(id)}/assign`, { body: { agent_id: agentId } })

export const transfer = (id: string, toAgentId: string) =>
  api<Session>(`${sessionPath(id)}/transfer`, { body: { to_agent_id: toAgentId } })

export const closeSession = (id: string) => api<Session>(`${sessionPath(id)}/close`, { body: {} })

/** A closed conversation open again (active, no agent: picked up or routed as a new one). */
export const reopenSession = (id: string) => api<Session>(`${sessionPath(id)}/reopen`, { body: {} })

export const listAgents = () =>
  api<{ data: AgentRecord[] }>('/api/agents', { query: { page_size: 100 } }).then((p) => p.data)

export interface Suggestions {
  similar_tickets: { id: string; title: string }[]
  knowledge_docs: { id: string; title: string }[]
}

export const suggest = (query: string) =>
  api<{ data: Suggestions }>('/api/assist/suggest', { query: { query, limit: 3, doc_limit: 3 } }).then((r) => r.data)

export const createTicket = (session: Session, title: string) =>
  api<{ id: string }>('/api/tickets', {
    body: { title, customer_id: session.customer_id, session_id: session.id, source: 'chat' },
  })

/** `POST /uploads` is multipart, which the JSON client does not send: the same token and one refresh on a 401. */
export async function uploadFile(sessionId: string, file: File): Promise<Upload> {
  const send = (token: string | null) => {
    const form = new FormData()
    form.append('session_id', sessionId) // the fields before the file: access is decided on them
    form.append('file', file, file.name)
    return fetch('/uploads', {
      method: 'POST',
      body: form,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
    })
  }
  let res = await send(getAccessToken())
  if (res.status === 401) res = await send(await refreshAccessToken())
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new ApiError(res.status, body)
  return body as Upload
}

/** An upload's bytes as an object URL (an `<img>` or link cannot carry the bearer token). */
export async function fetchUpload(url: string): Promise<string> {
  let res = await fetch(url, { headers: { authorization: `Bearer ${getAccessToken()}` } })
  if (res.status === 401) res = await fetch(url, { headers: { authorization: `Bearer ${await refreshAccessToken()}` } })
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => ({})))
  return URL.createObjectURL(await res.blob())
}
