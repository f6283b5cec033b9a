import type { UserTokenState } from '@switchboard/contracts'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { IdentityDatabase, UsersTable } from './database.ts'

export type Db = Kysely<IdentityDatabase> | Transaction<IdentityDatabase>
export type UserRow = Selectable<UsersTable>

export const USER_STATUS = { active: 'active', inactive: 'inactive' } as const
export const ROLES = { admin: 'admin', supervisor: 'supervisor', agent: 'agent', customer: 'customer' } as const

export interface NewUser {
  id: string
  username: string
  email: string
  password_hash: string
  name: string
  phone: string
  role: string
  /** for role admin: '' platform-wide (the default), else the one tenant administered */
  admin_tenant_id?: string
  now: string
}

export async function insertUser(db: Db, u: NewUser): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      id: u.id,
      username: u.username,
      email: u.email,
      password_hash: u.password_hash,
      name: u.name,
      phone: u.phone,
      role: u.role,
      admin_tenant_id: u.admin_tenant_id ?? '',
      status: USER_STATUS.active,
      created_at: u.now,
      updated_at: u.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute()
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst()
}

/** Login accepts a username or an email; usernames can't contain '@' (schema), so there is no ambiguity. */
export function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const q = db.selectFrom('users').selectAll()
  return (login.includes('@') ? q.where('email', '=', login.toLowerCase()) : q.where('username', '=', login))
    .limit(1)
    .executeTakeFirst()
}

/** Which of username/email is already taken (for a 409 naming the field). */
export async function takenIdentifiers(db: Db, username: string, email: string): Promise<Array<'username' | 'email'>> {
  const rows = await db
    .selectFrom('users')
    .select(['username', 'email'])
    .where((eb) => eb.or([eb('username', '=', username), eb('email', '=', email)]))
    .execute()
  const out: Array<'username' | 'email'> = []
  if (rows.some((r) => r.username === username)) out.push('username')
  if (rows.some((r) => r.email === email)) out.push('email')
  return out
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()
  return row !== undefined
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function touchLastLogin(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('users').set({ last_login: at }).where('id', '=', id).execute()
}

/**
 * Raises token_version, sets token_valid_after and token_state_seq in one statement (no read-modify-write
 * race between replicas). `validAfter` is whole seconds, the resolution of a JWT's `iat`.
 */
export function bumpUserTokenVersion(db: Db, id: string, validAfter: string, now: string) {
  return db
    .updateTable('users')
    .set((eb) => ({
      token_version: eb('token_version', '+', 1),
      token_state_seq: eb('token_state_seq', '+', 1),
      token_valid_after: validAfter,
      updated_at: now,
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/** Status and role changes are token-state changes too (the gateway caches `active`), so seq rises. */
export function updateUserStatus(db: Db, id: string, status: string, now: string) {
  return db
    .updateTable('users')
    .set((eb) => ({ status, token_state_seq: eb('token_state_seq', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/** Role and, for admins, their reach ('' platform-wide, else one tenant); a token-state change like status. */
export function updateUserRole(db: Db, id: string, role: string, now: string, adminTenantId = '') {
  return db
    .updateTable('users')
    .set((eb) => ({
      role,
      admin_tenant_id: adminTenantId,
      token_state_seq: eb('token_state_seq', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export function updateUserPassword(db: Db, id: string, passwordHash: string, now: string) {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export function userTokenState(u: UserRow): UserTokenState {
  return {
    user_id: u.id,
    active: u.status === USER_STATUS.active,
    token_version: Number(u.token_version),
    token_valid_after: u.token_valid_after,
    seq: Number(u.token_state_seq),
  }
}

/** The user as the API shows it (token response, /me). */
export function userView(u: UserRow) {
  return { id: u.id, username: u.username, email: u.email, name: u.name, role: u.role, status: u.status }
}
