import { type Caller, newId, nowIso } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import {
  countSessionUploads,
  deleteUploadRow,
  findSessionAccess,
  findUploadRow,
  insertUpload,
  lockSessionForUploads,
  toUpload,
  type UploadRow,
} from '../db/uploads.repository.ts'
import {
  acceptableContent,
  mayUseSession,
  mediaType,
  type SessionAccessFacts,
  sanitizeFilename,
  sha256Hex,
} from '../domain/upload-rules.ts'
import { ConversationErrors } from '../errors.ts'
import type { Upload } from '../schemas/uploads.schemas.ts'

/** A file as the form carried it: `truncated` when it ran past the size limit (the rest was not kept). */
export interface IncomingFile {
  filename: string | undefined
  content_type: string | undefined
  bytes: Uint8Array
  truncated: boolean
}

/** The session an upload goes to, once the caller may use it. */
export type UploadSession = SessionAccessFacts & { id: string; visitor_id: string | null }

/**
 * Whether the caller may upload to the session, decided from the form's fields before its file is read: anyone
 * else gets the 404 of a missing session (and the service reads no further); a session at its quota is 409.
 */
export async function uploadTarget(
  svc: ConversationsService,
  caller: Caller,
  fields: { session_id: string; visitor_credential?: string | undefined },
): Promise<UploadSession> {
  const session = await findSessionAccess(svc.db, fields.session_id)
  if (!session || !mayUseSession(session, caller.principal, fields.visitor_credential)) {
    throw new ConversationErrors.SessionNotFound(fields.session_id)
  }
  const max = svc.config.uploads.max_per_session
  if ((await countSessionUploads(svc.db, session.id)) >= max) throw new ConversationErrors.UploadQuota(max)
  return session
}

/**
 * Keeps an upload for a session `uploadTarget` admitted: size (413), then type (415), then the quota again under
 * the session's lock (two uploads racing for the last place: one is 409). The metadata row commits before the
 * bytes are put, because the database store's row references it; if the put fails the row goes again.
 */
export async function createUpload(
  svc: ConversationsService,
  caller: Caller,
  session: UploadSession,
  file: IncomingFile,
): Promise<Upload> {
  const { uploads } = svc.config
  if (file.truncated || file.bytes.byteLength > uploads.max_bytes) {
    throw new ConversationErrors.UploadTooLarge(uploads.max_bytes)
  }
  if (file.bytes.byteLength === 0) throw new ConversationErrors.UploadField('file', 'must not be empty')
  const type = mediaType(file.content_type)
  const filename = sanitizeFilename(file.filename)
  if (!acceptableContent(type, filename, file.bytes, uploads.content_types)) {
    throw new ConversationErrors.UploadType(type || '(none)')
  }
  const row: UploadRow = {
    id: newId(),
    tenant_id: session.tenant_id,
    workspace_id: session.workspace_id,
    session_id: session.id,
    ticket_id: null,
    // an anonymous visitor has no user id; its visitor id, marked so it is never taken for one
    owner_id: caller.principal?.user_id ?? `visitor:${session.visitor_id ?? ''}`,
    filename,
    content_type: type,
    size: file.bytes.byteLength,
    sha256: sha256Hex(file.bytes),
    created_at: nowIso(),
  }
  await svc.transaction(caller, async (tx) => {
    await lockSessionForUploads(tx, session.id)
    if ((await countSessionUploads(tx.db, session.id)) >= uploads.max_per_session) {
      throw new ConversationErrors.UploadQuota(uploads.max_per_session)
    }
    await insertUpload(tx.db, row)
  })
  try {
    await svc.blobs.put(row.id, file.bytes)
  } catch (err) {
    await deleteUploadRow(svc.db, row.id).catch((cleanup) =>
      svc.log.warn({ err: cleanup, upload_id: row.id }, 'upload row left without its bytes'),
    )
    throw err
  }
  return toUpload(row)
}

/**
 * An upload the caller may read: the same rule as writing, on the session it belongs to. Missing, not theirs,
 * or bytes gone: all the same 404.
 */
export async function readableUpload(
  svc: ConversationsService,
  caller: Caller,
  id: string,
  credential: string | undefined,
): Promise<UploadRow> {
  const row = await findUploadRow(svc.db, id)
  const session = row?.session_id ? await findSessionAccess(svc.db, row.session_id) : undefined
  if (!row || !session || !mayUseSession(session, caller.principal, credential)) {
    throw new ConversationErrors.UploadNotFound(id)
  }
  return row
}

/** The bytes of an upload already found readable; a row without bytes is logged and answered as missing. */
export async function uploadBytes(svc: ConversationsService, row: UploadRow): Promise<Uint8Array> {
  const bytes = await svc.blobs.get(row.id)
  if (!bytes) {
    svc.log.warn({ upload_id: row.id, store: svc.blobs.kind }, 'upload has no bytes in the blob store')
    throw new ConversationErrors.UploadNotFound(row.id)
  }
  return bytes
}
