import { columnTypes, dialectOf } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'

// Knowledge docs: the local knowledge base (providers/local.ts) and what is upserted into the external provider.
// Full-text search is engine-specific: PostgreSQL keeps a generated, weighted tsvector ('simple' configuration, so
// no language's stemming or stop words get in the way) under a GIN index; SQLite keeps an FTS5 table of its own,
// written by triggers (a standalone table keyed by the doc id: an external-content table would need a rowid that
// VACUUM does not renumber, which a text primary key does not give).
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db)
  const t = columnTypes(dialect)
  await db.schema
    .createTable('knowledge_docs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('general'))
    .addColumn('tags', t.json, (c) => c.notNull())
    .addColumn('is_public', t.bool, (c) => c.notNull())
    .addColumn('provider_id', 'text')
    .addColumn('external_id', 'text')
    .addColumn('sync_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  // lists are scoped and newest first; the public KB adds is_public
  await db.schema
    .createIndex('knowledge_docs_scope_updated_idx')
    .on('knowledge_docs')
    .columns(['tenant_id', 'workspace_id', 'updated_at'])
    .execute()

  if (dialect === 'postgres') {
    await sql`
      alter table knowledge_docs add column search tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', content), 'B')
      ) stored`.execute(db)
    await sql`create index knowledge_docs_search_idx on knowledge_docs using gin (search)`.execute(db)
    return
  }
  await sql`
    create virtual table knowledge_docs_fts using fts5(
      doc_id unindexed, title, content, tokenize = 'unicode61 remove_diacritics 2'
    )`.execute(db)
  await sql`
    create trigger knowledge_docs_fts_insert after insert on knowledge_docs begin
      insert into knowledge_docs_fts (doc_id, title, content) values (new.id, new.title, new.content);
    end`.execute(db)
  await sql`
    create trigger knowledge_docs_fts_update after update of title, content on knowledge_docs begin
      delete from knowledge_docs_fts where doc_id = old.id;
      insert into knowledge_docs_fts (doc_id, title, content) values (new.id, new.title, new.content);
    end`.execute(db)
  await sql`
    create trigger knowledge_docs_fts_delete after delete on knowledge_docs begin
      delete from knowledge_docs_fts where doc_id = old.id;
    end`.execute(db)
}
