import { columnTypes, dialectOf } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  // Sessions (conversations). agent_id and customer_id are user ids; an anonymous widget session has a visitor
  // (and the hash of the credential it was given) instead of a customer.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('customer_id', 'text')
    .addColumn('visitor_id', 'text')
    .addColumn('visitor_secret_hash', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('ticket_id', 'text')
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_message_at', t.timestamp)
    .addColumn('ended_at', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('sessions_scope_started_idx')
    .on('sessions')
    .columns(['tenant_id', 'workspace_id', 'started_at'])
    .execute()
  await db.schema
    .createIndex('sessions_scope_status_idx')
    .on('sessions')
    .columns(['tenant_id', 'workspace_id', 'status'])
    .execute()
  // an agent's load is counted from here: open sessions assigned to them
  await db.schema.createIndex('sessions_agent_status_idx').on('sessions').columns(['agent_id', 'status']).execute()
  await db.schema.createIndex('sessions_customer_idx').on('sessions').column('customer_id').execute()
  await db.schema.createIndex('sessions_ticket_idx').on('sessions').column('ticket_id').execute()

  // Messages: ids are UUIDv7, so (session_id, id) is chronological and serves the before/after cursors.
  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('metadata', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('messages_session_id_idx').on('messages').columns(['session_id', 'id']).execute()
  await db.schema
    .createIndex('messages_scope_created_idx')
    .on('messages')
    .columns(['tenant_id', 'workspace_id', 'created_at'])
    .execute()

  // Transfer records: every hand-over of a session (to a human, to an agent, reassignment).
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('from_agent_id', 'text')
    .addColumn('to_agent_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('transferred_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('transfers_session_idx')
    .on('transfers')
    .columns(['session_id', 'transferred_at'])
    .execute()
  await db.schema
    .createIndex('transfers_scope_idx')
    .on('transfers')
    .columns(['tenant_id', 'workspace_id', 'transferred_at'])
    .execute()

  // The waiting queue: at most one `waiting` record per session (partial unique index on both engines).
  await db.schema
    .createTable('waiting')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('priority_rank', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('target_skills', t.json, (c) => c.notNull())
    .addColumn('queued_at', t.timestamp, (c) => c.notNull())
    .addColumn('assigned_at', t.timestamp)
    .addColumn('assigned_to', 'text')
    .addColumn('cancelled_at', t.timestamp)
    .addColumn('cancel_reason', 'text')
    .execute()
  await sql`create unique index waiting_one_per_session on waiting (session_id) where status = 'waiting'`.execute(db)
  // served oldest first within priority, per scope
  await db.schema
    .createIndex('waiting_queue_idx')
    .on('waiting')
    .columns(['status', 'tenant_id', 'workspace_id', 'priority_rank', 'queued_at'])
    .execute()

  // Agents as identity's events describe them (a projection, rebuilt by replay); load is counted from sessions.
  await db.schema
    .createTable('agents')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('department', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('skills', t.json, (c) => c.notNull())
    .addColumn('max_concurrent', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('rating', 'real', (c) => c.notNull().defaultTo(5))
    .addColumn('avg_response_time', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('agents_scope_user_idx')
    .on('agents')
    .columns(['tenant_id', 'workspace_id', 'user_id'])
    .unique()
    .execute()
  await db.schema
    .createIndex('agents_scope_status_idx')
    .on('agents')
    .columns(['tenant_id', 'workspace_id', 'status'])
    .execute()

  await db.schema
    .createTable('shifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('shift_type', 'text', (c) => c.notNull())
    .addColumn('start_time', t.timestamp, (c) => c.notNull())
    .addColumn('end_time', t.timestamp, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('scheduled'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('shifts_scope_start_idx')
    .on('shifts')
    .columns(['tenant_id', 'workspace_id', 'start_time'])
    .execute()
  await db.schema.createIndex('shifts_agent_idx').on('shifts').columns(['agent_id', 'start_time']).execute()

  // Uploads: the metadata here, the bytes behind the blob-store port (files under DATA_DIR, or `upload_blobs`).
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('ticket_id', 'text')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('uploads_session_idx').on('uploads').column('session_id').execute()
  await db.schema
    .createTable('upload_blobs')
    .addColumn('upload_id', 'text', (c) => c.primaryKey().references('uploads.id').onDelete('cascade'))
    .addColumn('data', dialectOf(db) === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .execute()
}
