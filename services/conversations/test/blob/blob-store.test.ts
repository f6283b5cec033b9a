import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { newId } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import type { BlobStore } from '../../src/blob/blob-store.ts'
import { createBlobStore } from '../../src/blob/create.ts'
import { createDatabaseStore } from '../../src/blob/database-store.ts'
import { createFileStore } from '../../src/blob/file-store.ts'
import { conversationsApp } from '../helpers/app.ts'

// every byte value, NULs and invalid UTF-8 included: a text round trip anywhere would show
const ALL_BYTES = new Uint8Array(Array.from({ length: 512 }, (_, i) => i % 256))

inEachStorageMode(t, 'blob stores', async (t, mode) => {
  const dir = t.testdir()
  const { svc } = await conversationsApp(t, mode, { env: { UPLOAD_DIR: dir } })
  // the database store's rows reference an upload: its metadata row comes first, as in createUpload
  const uploadRow = async (id: string) =>
    svc.db
      .insertInto('uploads')
      .values({
        id,
        tenant_id: 'acme',
        workspace_id: 'support',
        session_id: null,
        ticket_id: null,
        owner_id: 'u',
        filename: 'f',
        content_type: 'text/plain',
        size: 0,
        sha256: '',
        created_at: new Date().toISOString(),
      })
      .execute()

  const adapters: Array<[string, BlobStore, (id: string) => Promise<unknown>]> = [
    ['file', createFileStore(dir), async () => {}],
    ['database', createDatabaseStore(svc.db), uploadRow],
  ]

  for (const [name, store, prepare] of adapters) {
    t.test(`${name} store: put, get, overwrite, delete, missing`, async (t) => {
      t.equal(store.kind, name)
      const id = newId()
      await prepare(id)
      t.equal(await store.get(id), undefined, 'missing before put')
      await store.put(id, ALL_BYTES)
      const got = await store.get(id)
      t.ok(got instanceof Uint8Array)
      t.same(Buffer.from(got!), Buffer.from(ALL_BYTES), 'byte-exact')

      const big = randomBytes(2 * 1024 * 1024)
      await store.put(id, big)
      t.ok(Buffer.from((await store.get(id))!).equals(big), 'overwritten, 2 MiB byte-exact')

      const view = new Uint8Array(ALL_BYTES.buffer, 10, 20)
      await store.put(id, view)
      t.same(Buffer.from((await store.get(id))!), Buffer.from(view), 'a view is stored as its window only')

      const empty = newId()
      await prepare(empty)
      await store.put(empty, new Uint8Array(0))
      t.equal((await store.get(empty))?.byteLength, 0, 'an empty blob is not a missing one')

      await store.delete(id)
      t.equal(await store.get(id), undefined, 'gone after delete')
      await store.delete(id)
      await store.delete(newId())
      t.pass('deleting a missing blob is not an error')
    })
  }

  t.test('file store: ids are checked, writes leave no temporary files', async (t) => {
    const files = createFileStore(dir)
    for (const bad of ['../../etc/passwd', '..', `${newId()}/x`, newId().toUpperCase(), '']) {
      await t.rejects(files.put(bad, ALL_BYTES), /invalid blob id/, `put ${JSON.stringify(bad)}`)
      await t.rejects(files.get(bad), /invalid blob id/, `get ${JSON.stringify(bad)}`)
    }
    const id = newId()
    await files.put(id, ALL_BYTES)
    t.same(
      readdirSync(join(dir, id.slice(-2))).filter((f) => f.startsWith(id)),
      [id],
      'only the file itself',
    )
  })

  t.test('database store: the blob goes with its upload row', async (t) => {
    const db = createDatabaseStore(svc.db)
    const id = newId()
    await uploadRow(id)
    await db.put(id, ALL_BYTES)
    await svc.db.deleteFrom('uploads').where('id', '=', id).execute()
    t.equal(await db.get(id), undefined)
  })

  t.test('create picks the configured adapter', async (t) => {
    t.equal(svc.blobs.kind, mode === 'sqlite' ? 'file' : 'database', 'the default of each mode')
    const as = (store: 'file' | 'database') =>
      createBlobStore({ ...svc, config: { ...svc.config, uploads: { ...svc.config.uploads, store } } }).kind
    t.equal(as('file'), 'file')
    t.equal(as('database'), 'database')
  })
})
