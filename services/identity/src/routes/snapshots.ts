import type { UserRow } from '../db/users.repository.ts'

/** What a user revoke changes: the audit record's before/after on the security surface. */
export const tokenState = (u: UserRow) => ({
  token_version: Number(u.token_version),
  token_valid_after: u.token_valid_after,
})

/** The same for a revoke through an agent or customer record, naming the user behind it. */
export const userTokenSnapshot = (u: UserRow) => ({ user_id: u.id, ...tokenState(u) })
