import { type Delivery, forgetInbox, subjectMatches } from '@switchboard/events'
import { replayInbox } from '@switchboard/platform'
import { sql } from 'kysely'
import { AI_PROJECTION } from '../consumers/ai.consumer.ts'
import { CONVERSATIONS_PROJECTION } from '../consumers/conversations.consumer.ts'
import { IDENTITY_PROJECTION } from '../consumers/identity.consumer.ts'
import { MAX_BATCH } from '../consumers/projection.ts'
import { PROJECTIONS, type Projection } from '../consumers/projections.ts'
import { TICKETS_PROJECTION } from '../consumers/tickets.consumer.ts'
import type { StatisticsService } from '../context.ts'
import type { DailyCounter, StatisticsDatabase } from '../db/database.ts'
import { markRebuild, startRebuild } from '../db/positions.repository.ts'

type Table = keyof StatisticsDatabase

/** What each projection owns: its tables (aggregates included), and its DailyStats counters. */
const OWNED: Record<string, { tables: Table[]; daily: DailyCounter[] }> = {
  [IDENTITY_PROJECTION]: {
    tables: ['users', 'customers', 'agents', 'user_role_counts', 'customer_counts', 'customer_source_counts'],
    daily: [],
  },
  [TICKETS_PROJECTION]: {
    tables: [
      'tickets',
      'satisfactions',
      'sla_violations',
      'ticket_days',
      'ticket_status_counts',
      'ticket_agent_days',
      'ticket_key_days',
    ],
    daily: ['total_tickets', 'resolved_tickets', 'sla_violations'],
  },
  [CONVERSATIONS_PROJECTION]: {
    tables: ['sessions', 'message_counts', 'conversation_days', 'session_status_counts'],
    daily: ['total_sessions', 'total_messages'],
  },
  [AI_PROJECTION]: {
    // ai_days' platform-wide history (migration 0004) goes too: the replay counts each answer under its own scope
    tables: ['ai_days'],
    daily: ['ai_usage_count', 'knowledge_provider_usage_count', 'compat_provider_usage_count'],
  },
}

/** Short names (`tickets`) or consumer names (`statistics-tickets`); none: every projection. */
export function projectionsNamed(names: readonly string[] = []): Projection[] {
  if (names.length === 0) return [...PROJECTIONS]
  return names.map((name) => {
    const def = PROJECTIONS.find((p) => p.durable === name || p.durable === `statistics-${name}`)
    if (!def) {
      const known = PROJECTIONS.map((p) => p.durable.replace(/^statistics-/, '')).join(', ')
      throw new Error(`unknown projection ${name}: one of ${known}`)
    }
    return def
  })
}

/**
 * Empties a projection's read model, its DailyStats counters, its inbox rows and its position, in one transaction.
 * On PostgreSQL the tables are locked first, inbox first (every consumer's transaction starts there), so a live
 * consumer's event in flight is either wholly before the reset (and replayed) or wholly after it (and skipped).
 */
export async function resetProjection(svc: StatisticsService, def: Projection): Promise<void> {
  const owned = OWNED[def.durable]
  if (!owned) throw new Error(`${def.durable}: no tables declared`)
  await svc.db.transaction().execute(async (trx) => {
    if (svc.dialect === 'postgres') {
      const locked = ['inbox', ...owned.tables, 'daily_stats', 'projection_positions'].map((t) => sql.table(t))
      await sql`lock table ${sql.join(locked)} in exclusive mode`.execute(trx)
    }
    for (const table of owned.tables) await trx.deleteFrom(table).execute()
    if (owned.daily.length) {
      await trx
        .updateTable('daily_stats')
        .set(Object.fromEntries(owned.daily.map((c) => [c, 0])))
        .execute()
    }
    await forgetInbox(trx, def.durable)
    await startRebuild(trx, def.durable, new Date().toISOString())
  })
}

export interface RebuildReport {
  projection: string
  stream: string
  /** events read from the stream (the projection's subjects) */
  events: number
  /** of which applied by the rebuild (the rest the live consumer had applied first) */
  applied: number
  /** events that could not be applied even after the stream was through, with the reason */
  failed: Array<{ seq: number; id: string; type: string; error: string }>
}

export interface RebuildOptions {
  /** before a projection is emptied (the CLI sizes its progress bar here) */
  onStart?(projection: string, stream: string): void | Promise<void>
  /** after each event read (and once at the end) */
  onProgress?(projection: string, done: number): void
  /** how often the position shows the replay's progress, in events */
  markEvery?: number
}

/**
 * Replays a projection's stream from its start through the projection's own handler, each event in the inbox's
 * transaction as the live consumer applies it: whichever of the two comes first applies an event, the other skips
 * it, so events arriving during the rebuild end applied once. A partial event before its record (thrown, as live)
 * is tried again once the stream is through.
 */
export async function replayProjection(
  svc: StatisticsService,
  def: Projection,
  opts: RebuildOptions = {},
): Promise<RebuildReport> {
  const report: RebuildReport = { projection: def.durable, stream: def.stream, events: 0, applied: 0, failed: [] }
  const markEvery = opts.markEvery ?? 500
  const later: Delivery[] = []
  // the replay applies its events in batches (one transaction each, as the live consumers do: the `batch` option)
  let chunk: Delivery[] = []
  const flush = async () => {
    const outcomes = await replayInbox(svc, def, chunk)
    outcomes.forEach((o, i) => {
      if (!o.ok) later.push(chunk[i]!)
      else if (o.applied) report.applied++
    })
    const last = chunk.at(-1)
    chunk = []
    return last
  }
  let marked = 0
  await svc.bus.replay(def.stream, { fromSeq: 1 }, async (d) => {
    if (!def.subjects.some((f) => subjectMatches(f, d.subject))) return
    chunk.push(d)
    report.events++
    if (chunk.length >= MAX_BATCH) {
      const last = await flush()
      if (last && report.events - marked >= markEvery) {
        marked = report.events
        await markRebuild(svc.db, def.durable, last.seq)
      }
    }
    opts.onProgress?.(def.durable, report.events)
  })
  if (chunk.length > 0) await flush()
  for (const d of later) {
    const [o] = await replayInbox(svc, def, [d])
    if (o?.ok) {
      if (o.applied) report.applied++
    } else {
      const { id, type } = d.envelope
      report.failed.push({ seq: d.seq, id, type, error: ((o?.error ?? new Error('not applied')) as Error).message })
    }
  }
  await markRebuild(svc.db, def.durable, null)
  opts.onProgress?.(def.durable, report.events)
  return report
}

/** `switchboard stats rebuild`: each named projection (default all) emptied and replayed, one after the other. */
export async function rebuildProjections(
  svc: StatisticsService,
  names: readonly string[] = [],
  opts: RebuildOptions = {},
): Promise<RebuildReport[]> {
  const reports: RebuildReport[] = []
  for (const def of projectionsNamed(names)) {
    await opts.onStart?.(def.durable, def.stream)
    await resetProjection(svc, def)
    reports.push(await replayProjection(svc, def, opts))
  }
  return reports
}
