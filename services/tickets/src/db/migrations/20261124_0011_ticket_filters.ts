import { dialectOf, fromJson } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'

// Every list filter of GET /api/tickets rides on an index with the scope as its prefix (lists are always scoped);
// tags move to their own rows so that `tag=` is an index look-up rather than a scan of JSON.
export async function up(db: Kysely<any>): Promise<void> {
  const scoped = async (name: string, columns: string[]) =>
    db.schema
      .createIndex(name)
      .on('tickets')
      .columns(['tenant_id', 'workspace_id', ...columns])
      .execute()
  await scoped('tickets_scope_priority_idx', ['priority'])
  await scoped('tickets_scope_category_idx', ['category'])
  await scoped('tickets_scope_source_idx', ['source'])
  // also auto-assignment's load count: an agent's tickets by status
  await scoped('tickets_scope_agent_idx', ['agent_id', 'status'])
  await scoped('tickets_scope_customer_idx', ['customer_id'])
  await scoped('tickets_scope_updated_idx', ['updated_at'])
  await scoped('tickets_scope_resolved_idx', ['resolved_at'])
  await scoped('tickets_scope_closed_idx', ['closed_at'])

  await db.schema
    .createTable('ticket_tags')
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_tags_pk', ['ticket_id', 'tag'])
    .execute()
  await db.schema
    .createIndex('ticket_tags_scope_tag_idx')
    .on('ticket_tags')
    .columns(['tenant_id', 'workspace_id', 'tag', 'ticket_id'])
    .execute()
  // Tickets written before this migration: their tags as rows, in batches.
  let after = ''
  for (;;) {
    const rows: Array<{ id: string; tags: unknown; tenant_id: string; workspace_id: string }> = await db
      .selectFrom('tickets')
      .select(['id', 'tags', 'tenant_id', 'workspace_id'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute()
    if (rows.length === 0) break
    const tagRows = rows.flatMap((r) =>
      [...new Set(fromJson<string[]>(r.tags, []))].map((tag) => ({
        ticket_id: r.id,
        tag,
        tenant_id: r.tenant_id,
        workspace_id: r.workspace_id,
      })),
    )
    if (tagRows.length > 0) await db.insertInto('ticket_tags').values(tagRows).execute()
    after = rows[rows.length - 1]!.id
  }

  if (dialectOf(db) === 'postgres') await trigramIndexes(db)
}

/**
 * `search` is a substring match (ILIKE '%…%'), which only a trigram index serves. pg_trgm is a trusted extension
 * (any database owner may install it, in `public`, shared by every service schema); where it can't be installed
 * the migration goes on without these two indexes and search scans the scope's rows, as it does on SQLite.
 * The advisory lock keeps two services migrating at once from racing on CREATE EXTENSION.
 */
async function trigramIndexes(db: Kysely<any>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('switchboard:pg_trgm'))`.execute(db)
  await sql`savepoint tickets_trgm`.execute(db)
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db)
    await sql`create index tickets_title_trgm_idx on tickets using gin (title public.gin_trgm_ops)`.execute(db)
    await sql`create index tickets_description_trgm_idx on tickets using gin (description public.gin_trgm_ops)`.execute(
      db,
    )
    await sql`release savepoint tickets_trgm`.execute(db)
  } catch {
    await sql`rollback to savepoint tickets_trgm`.execute(db)
  }
}
