import type { DeniedToken } from '@switchboard/contracts'
import { type PageWindow, selectPage } from '@switchboard/platform'
import type { Selectable } from 'kysely'
import type { RevokedTokensTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type DeniedRow = Selectable<RevokedTokensTable>

export interface NewDenied {
  jti: string
  user_id: string
  session_id: string
  token_use: string
  expires_at: string
  revoked_by: string
  reason: string
  now: string
}

/** Idempotent: denying a jti twice keeps the first record (and returns it). */
export async function insertDenied(db: Db, d: NewDenied): Promise<{ row: DeniedRow; created: boolean }> {
  const inserted = await db
    .insertInto('revoked_tokens')
    .values({
      jti: d.jti,
      user_id: d.user_id,
      session_id: d.session_id,
      token_use: d.token_use,
      expires_at: d.expires_at,
      revoked_at: d.now,
      revoked_by: d.revoked_by,
      reason: d.reason,
    })
    .onConflict((oc) => oc.column('jti').doNothing())
    .returningAll()
    .executeTakeFirst()
  if (inserted) return { row: inserted, created: true }
  const row = await db.selectFrom('revoked_tokens').selectAll().where('jti', '=', d.jti).executeTakeFirstOrThrow()
  return { row, created: false }
}

export async function isDenied(db: Db, jti: string): Promise<boolean> {
  const row = await db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst()
  return row !== undefined
}

/** Records that still matter (not yet expired): what the gateway preloads into its cache. */
export function listActiveDenied(db: Db, now: string, limit = 10_000): Promise<DeniedRow[]> {
  return db
    .selectFrom('revoked_tokens')
    .selectAll()
    .where('expires_at', '>', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute()
}

export interface DeniedFilter {
  jti?: string | undefined
  user_id?: string | undefined
  session_id?: string | undefined
  token_use?: string | undefined
  /** only records whose expires_at is after this instant */
  active_at?: string | undefined
  /** restrict to these users (scope filtering by the caller); an empty array matches nothing */
  user_ids?: readonly string[] | undefined
}

function filtered(db: Db, f: DeniedFilter) {
  let q = db.selectFrom('revoked_tokens')
  if (f.jti) q = q.where('jti', '=', f.jti)
  if (f.user_id) q = q.where('user_id', '=', f.user_id)
  if (f.session_id) q = q.where('session_id', '=', f.session_id)
  if (f.token_use) q = q.where('token_use', '=', f.token_use)
  if (f.active_at) q = q.where('expires_at', '>', f.active_at)
  if (f.user_ids) q = f.user_ids.length ? q.where('user_id', 'in', [...f.user_ids]) : q.where((eb) => eb.lit(false))
  return q
}

/** Paginated denylist listing for GET /api/security/tokens/revoked, newest first. */
export function listDenied(db: Db, f: DeniedFilter, window: PageWindow) {
  return selectPage(filtered(db, f), window, (q) => q.selectAll().orderBy('revoked_at', 'desc').orderBy('jti'))
}

/** Denylist cleanup: a record past its token's expiry protects nothing any more. */
export async function deleteExpiredDenied(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('revoked_tokens').where('expires_at', '<', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}

export function deniedToken(r: DeniedRow): DeniedToken {
  return { jti: r.jti, user_id: r.user_id, session_id: r.session_id, token_use: r.token_use, expires_at: r.expires_at }
}
