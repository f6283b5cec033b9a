import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// The right to erasure (commands/erasure.commands.ts): one row per erased customer, kept after the customer record
// is gone so that a second request answers with the first and the report stays readable; one row per unit that
// reported what it did (`counts`: JSON text of name → number). Nothing personal is kept here: ids and counts only.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('customer_erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_at', t.timestamp, (c) => c.notNull())
    .addColumn('completed_at', t.timestamp)
    .execute()
  await db.schema
    .createTable('customer_erasure_reports')
    .addColumn('erasure_id', 'text', (c) => c.notNull().references('customer_erasures.id'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('reported_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('customer_erasure_reports_pk', ['erasure_id', 'service'])
    .execute()
}
