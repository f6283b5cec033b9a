import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// A workspace's ticket settings (GET/PUT /api/tickets/settings): whether new tickets are auto-assigned. A scope
// without a row follows the service's default (TICKETS_AUTO_ASSIGN).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('ticket_settings')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('auto_assign', t.bool, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_settings_pk', ['tenant_id', 'workspace_id'])
    .execute()
}
