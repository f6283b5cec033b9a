import { type RawBuilder, sql } from 'kysely'

// Newest wins, for read models projected from events (statistics, ai-orchestrator's ticket index): every projected
// row remembers the event that last wrote it, and a late or replayed older event changes nothing.

/** An event's place in the order of writes: its occurred_at (normalised to ISO) and its id (a UUIDv7). */
export interface Version {
  version_at: string
  version_id: string
}

export const versionOf = (envelope: { id: string; occurred_at: string }): Version => ({
  version_at: new Date(envelope.occurred_at).toISOString(),
  version_id: envelope.id,
})

/**
 * `ON CONFLICT … DO UPDATE … WHERE` this: the incoming row (`excluded`) is newer than the stored one, so a late or
 * replayed older event leaves the row as the newer one made it (newest wins). Row values compare in order on both
 * engines.
 */
export const incomingIsNewer = (table: string): RawBuilder<boolean> =>
  sql<boolean>`(excluded.version_at, excluded.version_id) > (${sql.ref(`${table}.version_at`)}, ${sql.ref(`${table}.version_id`)})`

/** For a plain UPDATE: the stored row is older than `v`. */
export const storedIsOlder = (table: string, v: Version): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(`${table}.version_at`)}, ${sql.ref(`${table}.version_id`)}) < (${v.version_at}, ${v.version_id})`
