/**
 * The widget's anonymous HTTP calls (the gateway's `/public/*`, same origin as the frame). Errors keep the fleet's
 * error body (`{error: {code, message}}` or `{code, message}`) and the status, for the words shown.
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, code: string) {
    super(`${status} ${code}`)
    this.status = status
    this.code = code
  }
}

export async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(path, { credentials: 'omit', ...init })
  } catch {
    throw new ApiError(0, 'NETWORK')
  }
  const text = await res.text()
  let body: any
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  if (!res.ok) throw new ApiError(res.status, String(body?.error?.code ?? body?.code ?? res.status))
  return body as T
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
})

export interface Portal {
  brand_name?: string
  logo_url?: string | null
  primary_color?: string
  default_locale?: string
  widget?: {
    prechat?: 'off' | 'name' | 'name_email'
    greeting?: string | null
    offline_message?: string | null
  }
}

const scopeQuery = (tenantId: string, workspaceId: string) =>
  new URLSearchParams({ tenant_id: tenantId, workspace_id: workspaceId }).toString()

export const portalConfig = (tenantId: string, workspaceId: string) =>
  call<Portal>(`/public/portal/config?${scopeQuery(tenantId, workspaceId)}`)

/** Whether an agent is online; unknown (the call failed) counts as open: the chat is never hidden by mistake. */
export const availability = (tenantId: string, workspaceId: string) =>
  call<{ agents_online: number; open: boolean }>(`/public/widget/availability?${scopeQuery(tenantId, workspaceId)}`)
    .then((a) => a.open !== false)
    .catch(() => true)

export const leaveMessage = (body: {
  tenant_id: string
  workspace_id: string
  name?: string
  email: string
  content: string
  session_id?: string
}) => call<{ ticket_id: string }>('/public/widget/tickets', json(body))
