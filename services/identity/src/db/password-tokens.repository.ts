import type { Selectable } from 'kysely'
import type { PasswordTokensTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type PasswordTokenRow = Selectable<PasswordTokensTable>

export function insertPasswordToken(
  db: Db,
  t: { token_hash: string; user_id: string; created_by: string; expires_at: string; now: string },
) {
  return db
    .insertInto('password_tokens')
    .values({
      token_hash: t.token_hash,
      user_id: t.user_id,
      created_by: t.created_by,
      expires_at: t.expires_at,
      used_at: null,
      created_at: t.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Uses a token once: marks it used when it is unused and not expired, in one statement, so two concurrent
 * redemptions cannot both succeed. Undefined when it is unknown, used or expired.
 */
export function consumePasswordToken(db: Db, tokenHash: string, now: string): Promise<PasswordTokenRow | undefined> {
  return db
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst()
}
