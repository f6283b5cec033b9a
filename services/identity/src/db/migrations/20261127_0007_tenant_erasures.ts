import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// A tenant's erasure of itself (commands/tenant-erasure.commands.ts): one row per tenant, kept after its people are
// gone so that a repeated request answers with the first and the report stays readable; one row per unit that
// reported what it did (`counts`: JSON text of name → number). Ids and counts only.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('tenant_erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().unique())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_at', t.timestamp, (c) => c.notNull())
    .addColumn('completed_at', t.timestamp)
    .execute()
  await db.schema
    .createTable('tenant_erasure_reports')
    .addColumn('tenant_erasure_id', 'text', (c) => c.notNull().references('tenant_erasures.id'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('reported_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_erasure_reports_pk', ['tenant_erasure_id', 'service'])
    .execute()
}
