import type { Kysely } from 'kysely'
import type { ConversationsDatabase } from '../db/database.ts'
import type { BlobStore } from './blob-store.ts'

// pg writes a Buffer as bytea and reads bytea back as one; node:sqlite binds a Uint8Array as a BLOB and reads
// one back as a Uint8Array. A Buffer view over the caller's bytes (no copy) suits both drivers.
const asBuffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength)

/**
 * Blobs in the service's own `upload_blobs` table (bytea on PostgreSQL, BLOB on SQLite): any replica serves any
 * upload. The row references its `uploads` row, which must exist first, and goes when that row is deleted.
 */
export function createDatabaseStore(db: Kysely<ConversationsDatabase>): BlobStore {
  return {
    kind: 'database',
    async put(id, data) {
      const bytes = asBuffer(data)
      await db
        .insertInto('upload_blobs')
        .values({ upload_id: id, data: bytes })
        .onConflict((oc) => oc.column('upload_id').doUpdateSet({ data: bytes }))
        .execute()
    },
    async get(id) {
      const row = await db.selectFrom('upload_blobs').select('data').where('upload_id', '=', id).executeTakeFirst()
      if (!row) return undefined
      const data = row.data as Uint8Array
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    },
    async delete(id) {
      await db.deleteFrom('upload_blobs').where('upload_id', '=', id).execute()
    },
  }
}
