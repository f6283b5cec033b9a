import type { Kysely } from 'kysely'
import type { StatisticsService } from '../../src/context.ts'

// The read models row for row, for comparing two schemas that took the same events (the rebuild test, the backlog
// test): every raw table in key order, DailyStats without its write time.

const TABLES = {
  users: 'user_id',
  customers: 'customer_id',
  agents: 'agent_id',
  tickets: 'ticket_id',
  satisfactions: 'satisfaction_id',
  sla_violations: 'violation_id',
  sessions: 'session_id',
  message_counts: ['tenant_id', 'workspace_id', 'bucket'],
  daily_stats: 'date',
} as const

/** Every read model row, in key order; DailyStats without its write time. */
export async function snapshot(svc: StatisticsService) {
  const db = svc.db as unknown as Kysely<any>
  const out: Record<string, unknown[]> = {}
  for (const [table, key] of Object.entries(TABLES)) {
    const rows = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(Array.isArray(key) ? key : [key])
      .execute()
    out[table] = rows.map(({ updated_at: _, ...row }) => ({
      ...row,
      ...(row.version_at ? { version_at: new Date(row.version_at).toISOString() } : {}),
    }))
  }
  return out
}
