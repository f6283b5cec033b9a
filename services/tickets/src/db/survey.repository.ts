import { type PageWindow, type Scope, selectPage, type Tx, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { SurveyStatus } from '../domain/survey-rules.ts'
import type { Survey } from '../schemas/satisfaction.schemas.ts'
import type { SatisfactionSurveysTable, TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

/** The API's survey: everything but the token's hash. */
export function toSurvey(row: Selectable<SatisfactionSurveysTable>): Survey {
  const { token_hash: _hash, ...survey } = row
  return { ...survey, status: survey.status as SurveyStatus }
}

export async function insertSurvey(db: Db, survey: Survey, tokenHash: string): Promise<void> {
  await db
    .insertInto('satisfaction_surveys')
    .values({ ...survey, token_hash: tokenHash })
    .execute()
}

export async function surveyOfTicket(db: Db, ticketId: string) {
  return db.selectFrom('satisfaction_surveys').selectAll().where('ticket_id', '=', ticketId).executeTakeFirst()
}

/** The survey, locked until `tx` ends; another tenant's is not found, like a missing one. */
export async function findSurveyForUpdate(tx: Tx<TicketsDatabase>, id: string, scope: Scope) {
  const q = whereScope(tx.db.selectFrom('satisfaction_surveys').selectAll().where('id', '=', id), scope)
  return tx.forUpdate(q).executeTakeFirst()
}

const surveyByToken = (db: Db, hash: string) =>
  db.selectFrom('satisfaction_surveys').selectAll().where('token_hash', '=', hash)

/** By the hash of a link's token: the public routes' only way in (no scope: the token is the credential). */
export async function surveyByTokenHash(db: Db, hash: string) {
  return surveyByToken(db, hash).executeTakeFirst()
}

/** `surveyByTokenHash`, its row locked until `tx` ends. */
export async function surveyByTokenHashForUpdate(tx: Tx<TicketsDatabase>, hash: string) {
  return tx.forUpdate(surveyByToken(tx.db, hash)).executeTakeFirst()
}

/**
 * Moves a survey that is still `from` to `patch`; answers whether it did. Two answers racing on one survey: the
 * second finds it no longer `sent` and is refused.
 */
export async function moveSurvey(
  db: Db,
  id: string,
  from: readonly string[],
  patch: Partial<Selectable<SatisfactionSurveysTable>>,
): Promise<boolean> {
  const result = await db
    .updateTable('satisfaction_surveys')
    .set(patch)
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export interface SurveyFilters {
  ticket_id?: string
  customer_id?: string
  status?: string
  channel?: string
}

export async function listSurveys(db: Db, scope: Scope, f: SurveyFilters, window: PageWindow) {
  let q = whereScope(db.selectFrom('satisfaction_surveys'), scope)
  if (f.ticket_id) q = q.where('ticket_id', '=', f.ticket_id)
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id)
  if (f.status) q = q.where('status', '=', f.status)
  if (f.channel) q = q.where('channel', '=', f.channel)
  const { rows, total } = await selectPage(q, window, (qb) =>
    qb.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  )
  return { rows: rows.map(toSurvey), total }
}
