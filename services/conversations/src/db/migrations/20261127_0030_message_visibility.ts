import type { Kysely } from 'kysely'

/**
 * Messages get `visibility`: `public` (everyone in the session) or `internal` (a note, staff only). Every message
 * written before was public, which the default says; every insert names its visibility from now on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .execute()
}
