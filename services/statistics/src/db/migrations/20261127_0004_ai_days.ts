import type { Kysely } from 'kysely'

// The AI answers per scope and UTC day (ai_days), so that a tenant's or workspace's administrator reads its own AI
// usage: DailyStats' AI counters have no tenant dimension. The counts kept before this migration cannot be
// attributed (DailyStats never knew the scope): they are copied as platform-wide history, scope ('', ''), which only
// an unscoped view adds up. `switchboard stats rebuild ai` replaces them by the events' own scopes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ai_days')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('ai_usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('knowledge_provider_usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('compat_provider_usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ai_days_pk', ['tenant_id', 'workspace_id', 'day'])
    .execute()
  await db.schema.createIndex('ai_days_day_idx').on('ai_days').column('day').execute()
  const counters = ['ai_usage_count', 'knowledge_provider_usage_count', 'compat_provider_usage_count'] as const
  await db
    .insertInto('ai_days')
    .columns(['tenant_id', 'workspace_id', 'day', ...counters])
    .expression((eb) =>
      eb
        .selectFrom('daily_stats')
        .select((s) => [s.val('').as('tenant_id'), s.val('').as('workspace_id'), 'date as day', ...counters])
        .where((w) => w.or(counters.map((c) => w(c, '>', 0)))),
    )
    .execute()
}
