import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// The erased subjects (domain/erased-subjects.ts): hashes of a person's ids, identifiers and resources, per tenant,
// which the recorder masks late-arriving records by; and each tenant's erasure epoch, which the recorder's insert
// compares with the one its cache was read at (db/erased-subjects.repository.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('audit_erased_subjects')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('lead', 'integer', (c) => c.notNull())
    .addColumn('erasure_id', 'text', (c) => c.notNull())
    .addColumn('erased_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_erased_subjects_pk', ['tenant_id', 'digest'])
    .execute()
  await db.schema
    .createTable('audit_erasure_epochs')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey())
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .execute()
}
