import type { Kysely } from 'kysely'

// The SLA consumer's read for every agent message looks a session's tickets up within its scope
// (sla-projections.repository.ts, awaitingFirstResponseIn). tickets_session_idx (session_id alone) serves it on
// PostgreSQL, whose statistics show session_id all but unique; SQLite keeps none, and without this index it ranges
// over tickets_scope_created_idx (the whole scope, up to the message's time) instead. The read's equalities, then its
// bound on created_at: the one index that SQLite's estimates without statistics prefer, a lookup on both engines.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('tickets_scope_session_idx')
    .on('tickets')
    .columns(['tenant_id', 'workspace_id', 'session_id', 'created_at'])
    .execute()
}
