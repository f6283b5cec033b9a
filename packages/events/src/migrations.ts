import type { ColumnType, Kysely, Migration } from 'kysely'

/** Rows of the transactional outbox: one per event still to publish. */
export interface OutboxTable {
  /** the event (envelope) id, also the `Nats-Msg-Id` */
  id: string
  subject: string
  /** the envelope as JSON */
  envelope: string
  /** extra message headers as a JSON object */
  headers: ColumnType<string, string | undefined, string>
  /** ISO 8601, UTC: sorts as text the same on PostgreSQL and SQLite */
  created_at: string
  attempts: ColumnType<number, number | undefined, number>
  last_error: string | null
}

/** Events a consumer has applied, so that a redelivery is applied once. */
export interface InboxTable {
  consumer: string
  event_id: string
  processed_at: string
}

export interface EventsTables {
  outbox: OutboxTable
  inbox: InboxTable
}

/**
 * Forward-only migrations for the outbox and inbox tables. A service merges them into its own
 * Migrator provider; the timestamped names keep them in order with the service's migrations.
 * Plain `text` and `integer` columns so one migration serves PostgreSQL and SQLite.
 */
export const eventsMigrations: Record<string, Migration> = {
  '20261122_0001_outbox_inbox': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('outbox')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('envelope', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .execute()
      // The relay reads in this order.
      await db.schema
        .createIndex('outbox_created_at_id_idx')
        .ifNotExists()
        .on('outbox')
        .columns(['created_at', 'id'])
        .execute()
      await db.schema
        .createTable('inbox')
        .ifNotExists()
        .addColumn('consumer', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('processed_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_pkey', ['consumer', 'event_id'])
        .execute()
      // For pruning old inbox rows.
      await db.schema.createIndex('inbox_processed_at_idx').ifNotExists().on('inbox').column('processed_at').execute()
    },
  },
}
