import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { TransferRecord } from '../schemas/transfer.schemas.ts'
import type { ConversationsDatabase } from './database.ts'
import type { TransferRow } from './transfers.repository.ts'

// The transfer history of `/api/session-transfer/history` (the shared transfers.repository.ts writes the rows).

type Db = Kysely<ConversationsDatabase>

export const toTransferRecord = (r: TransferRow): TransferRecord => ({
  ...r,
  kind: r.kind as TransferRecord['kind'],
})

/** The scope's latest hand-overs, newest first. */
export async function latestTransfers(db: Db, scope: Scope, limit: number): Promise<TransferRow[]> {
  return whereScope(db.selectFrom('transfers').selectAll(), scope)
    .orderBy('transferred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}
