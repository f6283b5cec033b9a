import type { ServiceContext } from '@switchboard/platform'
import type { ConversationsConfig } from '../config.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import type { BlobStore } from './blob-store.ts'
import { createDatabaseStore } from './database-store.ts'
import { createFileStore } from './file-store.ts'

/**
 * The adapter `config.uploads.store` names: `file` under `config.uploads.dir` (the embedded default), `database`
 * in the service's own tables (the fleet default). Nothing is touched until the first upload.
 */
export function createBlobStore(svc: ServiceContext<ConversationsConfig, ConversationsDatabase>): BlobStore {
  const { store, dir } = svc.config.uploads
  return store === 'file' ? createFileStore(dir) : createDatabaseStore(svc.db)
}
