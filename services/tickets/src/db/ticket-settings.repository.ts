import { type Scope, toBool } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { SURVEY_EXPIRY_DAYS } from '../domain/survey-rules.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

/** What a workspace sets (PUT /api/tickets/settings). */
export interface TicketSettingsValues {
  auto_assign: boolean
  /** closing a ticket sends the customer a satisfaction survey */
  survey_enabled: boolean
  /** how many days a survey's link answers (a resend too) */
  survey_expiry_days: number
}

export interface TicketSettings extends TicketSettingsValues {
  /** true while the scope follows the service's defaults (TICKETS_AUTO_ASSIGN, surveys on for 7 days) */
  is_default: boolean
  updated_at: string | null
}

/** A scope's settings, or the service's defaults when it never set its own. */
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
  if (!row) {
    return {
      auto_assign: defaults.auto_assign,
      survey_enabled: true,
      survey_expiry_days: SURVEY_EXPIRY_DAYS,
      is_default: true,
      updated_at: null,
    }
  }
  return {
    auto_assign: toBool(row.auto_assign),
    survey_enabled: toBool(row.survey_enabled),
    survey_expiry_days: Number(row.survey_expiry_days),
    is_default: false,
    updated_at: row.updated_at,
  }
}

export async function upsertTicketSettings(db: Db, scope: Scope, s: TicketSettingsValues, now: string) {
  const values = {
    auto_assign: s.auto_assign,
    survey_enabled: s.survey_enabled,
    survey_expiry_days: s.survey_expiry_days,
    updated_at: now,
  }
  await db
    .insertInto('ticket_settings')
    .values({ ...scope, ...values })
    .onConflict((oc) => oc.columns(['tenant_id', 'workspace_id']).doUpdateSet(values))
    .execute()
}

/** A scope's survey rule: whether a close sends one, and how long its link answers (ms). */
export async function surveySettingsOf(db: Db, scope: Scope): Promise<{ enabled: boolean; ttlMs: number }> {
  // auto-assignment plays no part here: any default does
  const s = await findTicketSettings(db, scope, { auto_assign: false })
  return { enabled: s.survey_enabled, ttlMs: s.survey_expiry_days * 86_400_000 }
}
