import type { Tx } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { SessionAccessFacts } from '../domain/upload-rules.ts'
import type { Upload } from '../schemas/uploads.schemas.ts'
import type { ConversationsDatabase, UploadsTable } from './database.ts'

type Db = Kysely<ConversationsDatabase>
export type UploadRow = Selectable<UploadsTable>

export const uploadUrl = (id: string) => `/uploads/${id}`

export const toUpload = (row: UploadRow): Upload => ({
  id: row.id,
  filename: row.filename,
  content_type: row.content_type,
  size: Number(row.size),
  sha256: row.sha256,
  session_id: row.session_id,
  url: uploadUrl(row.id),
  created_at: row.created_at,
})

export async function insertUpload(db: Db, row: UploadRow): Promise<void> {
  await db.insertInto('uploads').values(row).execute()
}

/**
 * By id alone: an upload's reader may be an anonymous visitor with no scope, so access is decided from the
 * session it belongs to (mayUseSession), never from this row being found.
 */
export async function findUploadRow(db: Db, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Its blob row (database store) goes with it by the foreign key's cascade. */
export async function deleteUploadRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('uploads').where('id', '=', id).execute()
}

/** How many uploads a session holds (its quota). */
export async function countSessionUploads(db: Db, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Locks the session's row until `tx` ends: uploads to one session are counted against its quota one after another. */
export async function lockSessionForUploads(tx: Tx<ConversationsDatabase>, sessionId: string): Promise<void> {
  await tx.forUpdate(tx.db.selectFrom('sessions').select('id').where('id', '=', sessionId)).executeTakeFirst()
}

/** What the access rule needs of a session, whatever its scope (the rule itself checks the scope). */
export async function findSessionAccess(
  db: Db,
  sessionId: string,
): Promise<(SessionAccessFacts & { id: string; visitor_id: string | null }) | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'tenant_id', 'workspace_id', 'customer_id', 'visitor_id', 'visitor_secret_hash'])
    .where('id', '=', sessionId)
    .executeTakeFirst()
}
