import type { Kysely } from 'kysely'
import type { StatisticsDatabase } from './database.ts'

export interface Position {
  projection: string
  /** how far the read model is built: the newest applied event, or the rebuild's progress while one runs */
  stream_seq: number
  occurred_at: string
  rebuilding: boolean
}

/**
 * Moves a projection's position to an applied event when it is further along the stream (replicas apply in any
 * order; the highest sequence wins). In the event's own transaction, so a rolled-back event moves nothing.
 */
export async function advancePosition(
  db: Kysely<StatisticsDatabase>,
  projection: string,
  seq: number,
  occurredAt: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('projection_positions')
    .values({ projection, stream_seq: seq, occurred_at: occurredAt, applied_at: now })
    .onConflict((oc) =>
      oc
        .column('projection')
        .doUpdateSet((eb) => ({
          stream_seq: eb.ref('excluded.stream_seq'),
          occurred_at: eb.ref('excluded.occurred_at'),
          applied_at: eb.ref('excluded.applied_at'),
        }))
        .where('projection_positions.stream_seq', '<', (eb) => eb.ref('excluded.stream_seq')),
    )
    .execute()
}

export async function positionsOf(db: Kysely<StatisticsDatabase>): Promise<Map<string, Position>> {
  const rows = await db
    .selectFrom('projection_positions')
    .select(['projection', 'stream_seq', 'occurred_at', 'rebuild_seq'])
    .execute()
  return new Map(
    rows.map((r) => {
      const applied = Number(r.stream_seq)
      const rebuilding = r.rebuild_seq !== null
      return [
        r.projection,
        {
          projection: r.projection,
          // live events applied during a rebuild are further along than the replay: the replay is what is built
          stream_seq: rebuilding ? Math.min(applied, Number(r.rebuild_seq)) : applied,
          occurred_at: new Date(r.occurred_at).toISOString(),
          rebuilding,
        },
      ]
    }),
  )
}

/** A rebuild starts: nothing of the stream is built yet. */
export async function startRebuild(db: Kysely<StatisticsDatabase>, projection: string, now: string): Promise<void> {
  await db.deleteFrom('projection_positions').where('projection', '=', projection).execute()
  await db
    .insertInto('projection_positions')
    .values({ projection, stream_seq: 0, occurred_at: new Date(0).toISOString(), applied_at: now, rebuild_seq: 0 })
    .execute()
}

/** A rebuild's progress (`seq` replayed), or its end (`null`): from then on the applied events tell. */
export async function markRebuild(db: Kysely<StatisticsDatabase>, projection: string, seq: number | null) {
  await db.updateTable('projection_positions').set({ rebuild_seq: seq }).where('projection', '=', projection).execute()
}
