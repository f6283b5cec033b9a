import { type Scope, toBool } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

export interface TicketSettings {
  auto_assign: boolean
  /** true while the scope follows the service's default (TICKETS_AUTO_ASSIGN) */
  is_default: boolean
  updated_at: string | null
}

/** A scope's settings, or the service's default when it never set its own. */
export async function findTicketSettings(
  db: Db,
  scope: Scope,
  defaults: { auto_assign: boolean },
): Promise<TicketSettings> {
  const row = await db
    .selectFrom('ticket_settings')
    .selectAll()
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .executeTakeFirst()
  if (!row) return { auto_assign: defaults.auto_assign, is_default: true, updated_at: null }
  return { auto_assign: toBool(row.auto_assign), is_default: false, updated_at: row.updated_at }
}

export async function upsertTicketSettings(db: Db, scope: Scope, s: { auto_assign: boolean }, now: string) {
  await db
    .insertInto('ticket_settings')
    .values({ ...scope, auto_assign: s.auto_assign, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'workspace_id']).doUpdateSet({ auto_assign: s.auto_assign, updated_at: now }),
    )
    .execute()
}
