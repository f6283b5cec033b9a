import type { Kysely } from 'kysely'

// An agent's `rating` is the average of the satisfaction ratings of the tickets assigned to them, kept from
// tickets' events (consumers/agent-ratings.consumer.ts): a running sum and count, so a rating changed or removed
// corrects the average without reading tickets. Forward-only: earlier migrations are never edited.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agents')
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('agents')
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}
