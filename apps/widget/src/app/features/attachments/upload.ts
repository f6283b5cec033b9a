/**
 * An attachment: `POST /uploads` (multipart — the session and the visitor credential first, then the file, as
 * conversations reads them), then a message pointing at it. Loaded on the first file picked. Refusals in words:
 * 413 too large, 415 a type the workspace does not take (or whose bytes are not what it claims), 409 too many files.
 */
import { ApiError, call } from '../../lib/api.ts'
import type { ChatStore } from '../../lib/chat-store.ts'
import { addStrings, type T } from '../../lib/i18n.ts'

addStrings({
  en: {
    'upload.tooLarge': 'That file is too large to send.',
    'upload.type': 'That type of file cannot be sent here.',
    'upload.quota': 'No more files can be added to this conversation.',
    'upload.failed': 'The file could not be sent ({code}).',
  },
  'zh-CN': {
    'upload.tooLarge': '文件太大，无法发送。',
    'upload.type': '不支持发送此类型的文件。',
    'upload.quota': '此会话无法再添加文件。',
    'upload.failed': '文件发送失败（{code}）。',
  },
})

interface Upload {
  id: string
  filename: string
  content_type: string
  size: number
  url: string
}

export async function uploadAndSend(store: ChatStore, file: File): Promise<void> {
  const sessionId = store.state.sessionId
  const credential = store.visitorCredential
  if (!sessionId || !credential) throw new ApiError(409, 'NO_SESSION')
  const form = new FormData()
  form.append('session_id', sessionId)
  form.append('visitor_credential', credential)
  form.append('file', file, file.name)
  const up = await call<Upload>('/uploads', { method: 'POST', body: form })
  store.send(up.filename, {
    upload_id: up.id,
    url: up.url,
    filename: up.filename,
    content_type: up.content_type,
    size: up.size,
  })
}

export function describeUploadError(err: unknown, t: T): string {
  const e = err instanceof ApiError ? err : new ApiError(0, 'NETWORK')
  if (e.status === 413) return t('upload.tooLarge')
  if (e.status === 415) return t('upload.type')
  if (e.status === 409 && e.code !== 'NO_SESSION') return t('upload.quota')
  if (e.status === 0) return t('error.network')
  return t('upload.failed', { code: e.code })
}
