import { randomUUID } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { BlobStore } from './blob-store.ts'

// Upload ids are UUIDs (newId()); nothing else may name a file, so no id can climb out of the directory.
const BLOB_ID = /^[0-9a-f-]{36}$/

function checked(id: string): string {
  if (!BLOB_ID.test(id)) throw new Error(`invalid blob id ${JSON.stringify(id)}`)
  return id
}

const missing = (err: unknown) => (err as { code?: string }).code === 'ENOENT'

/**
 * Blobs as files under `dir`, for the embedded mode, where one process owns the data directory (never a fleet
 * replica's local disk). `<dir>/<last two hex digits>/<id>`: a UUIDv7 starts with the time, so its tail is what
 * spreads files over 256 sub-directories. A write goes to a temporary file that is synced and renamed into place,
 * so a reader never sees half a file and a crash leaves at most a stray `.tmp`.
 */
export function createFileStore(dir: string): BlobStore {
  const root = resolve(dir)
  const pathOf = (id: string) => join(root, checked(id).slice(-2), id)
  return {
    kind: 'file',
    async put(id, data) {
      const path = pathOf(id)
      await mkdir(join(root, id.slice(-2)), { recursive: true })
      const tmp = `${path}.${randomUUID()}.tmp`
      const file = await open(tmp, 'wx', 0o600)
      try {
        await file.writeFile(data)
        await file.sync()
      } finally {
        await file.close()
      }
      try {
        await rename(tmp, path)
      } catch (err) {
        await rm(tmp, { force: true })
        throw err
      }
    },
    async get(id) {
      try {
        const bytes = await readFile(pathOf(id))
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      } catch (err) {
        if (missing(err)) return undefined
        throw err
      }
    },
    async delete(id) {
      await rm(pathOf(id), { force: true })
    },
  }
}
