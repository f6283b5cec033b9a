import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal, REQUEST_ID_HEADER } from '@switchboard/contracts'
import { type Scope, ServiceUnavailableError } from '@switchboard/platform'
import { conversationsError } from '../commands/conversation-link.ts'

/** An audio file as received: its bytes, media type and a name for the download. */
export interface AudioFile {
  bytes: Uint8Array
  content_type: string
  filename: string
}

/** What conversations' `/uploads` answers (its Upload). */
export interface StoredUpload {
  id: string
  filename: string
  content_type: string
  size: number
  sha256: string
  session_id: string | null
  url: string
  created_at: string
}

export interface UploadTarget {
  urls: readonly string[]
  internalSecret: string
  /** this service's name: the service principal's user id */
  self: string
}

// Longer than the service client's 5 s: ten megabytes to another replica is not a JSON call.
const UPLOAD_TIMEOUT_MS = 60_000
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT'])

/**
 * Puts a file into a conversation through conversations' `/uploads` (its blob store, its type and size rules, its
 * per-session quota), as this service's principal in the conversation's scope. Not the platform's service client:
 * that one speaks JSON, an upload is a multipart form whose `session_id` must come before the `file`. Like the
 * client, a replica that refused the connection is tried once more on the next one; nothing is retried after a
 * byte may have been taken.
 */
export async function uploadToConversation(
  target: UploadTarget,
  scope: Scope,
  conversationId: string,
  audio: AudioFile,
  requestId?: string,
): Promise<StoredUpload> {
  const principal: Principal = {
    user_id: target.self,
    kind: 'service',
    roles: [],
    permissions: ['*'],
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    session_id: '',
    jti: `${target.self}-service`,
    token_tenant_id: '',
    token_workspace_id: '',
  }
  const headers: Record<string, string> = {
    [PRINCIPAL_HEADER]: await signInternalPrincipal(target.internalSecret, principal, 120),
  }
  if (requestId) headers[REQUEST_ID_HEADER] = requestId
  const form = () => {
    const f = new FormData()
    f.append('session_id', conversationId)
    f.append('file', new Blob([audio.bytes], { type: audio.content_type }), audio.filename)
    return f
  }
  const first = Math.floor(Math.random() * target.urls.length)
  const tries = Math.min(2, target.urls.length)
  for (let i = 0; i < tries; i++) {
    const base = target.urls[(first + i) % target.urls.length]!
    let res: Response
    try {
      res = await fetch(`${base}/uploads`, {
        method: 'POST',
        headers,
        body: form(),
        signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
      })
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code ?? ''
      const timeout = (err as Error).name === 'TimeoutError'
      if (timeout || !NOT_CONNECTED.has(code) || i === tries - 1) {
        throw new ServiceUnavailableError('conversations', timeout, { cause: err })
      }
      continue
    }
    const text = await res.text()
    const body = text ? (JSON.parse(text) as unknown) : undefined
    if (res.status === 201) return body as StoredUpload
    throw conversationsError(res.status, body, conversationId)
  }
  throw new ServiceUnavailableError('conversations', false)
}
