import type { SessionTokenState } from '@switchboard/contracts'
import type { Selectable } from 'kysely'
import type { AuthSessionsTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type SessionRow = Selectable<AuthSessionsTable>

export const SESSION_STATUS = { active: 'active', revoked: 'revoked' } as const

export interface NewSession {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  user_agent: string
  client_ip: string
  device_fingerprint: string
  refresh_jti: string
  now: string
}

export function insertSession(db: Db, s: NewSession): Promise<SessionRow> {
  return db
    .insertInto('auth_sessions')
    .values({
      id: s.id,
      user_id: s.user_id,
      status: SESSION_STATUS.active,
      tenant_id: s.tenant_id,
      workspace_id: s.workspace_id,
      user_agent: s.user_agent,
      client_ip: s.client_ip,
      device_fingerprint: s.device_fingerprint,
      refresh_jti: s.refresh_jti,
      created_at: s.now,
      last_seen_at: s.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('auth_sessions').selectAll().where('id', '=', id).executeTakeFirst()
}

/** A user's sessions, most recently seen first; `status` filters (e.g. only active ones). */
export function listUserSessions(db: Db, userId: string, opts: { status?: string; limit?: number } = {}) {
  let q = db.selectFrom('auth_sessions').selectAll().where('user_id', '=', userId)
  if (opts.status) q = q.where('status', '=', opts.status)
  return q
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .limit(opts.limit ?? 500)
    .execute()
}

export interface Rotation {
  expectedVersion: number
  refreshJti: string
  userAgent: string
  clientIp: string
  deviceFingerprint: string
  now: string
}

/**
 * Refresh rotation as a compare-and-set on token_version: of two concurrent refreshes with the same token
 * only one matches, the other sees no row and is treated as re-use.
 */
export function rotateSession(db: Db, id: string, r: Rotation): Promise<SessionRow | undefined> {
  return db
    .updateTable('auth_sessions')
    .set((eb) => ({
      token_version: eb('token_version', '+', 1),
      refresh_count: eb('refresh_count', '+', 1),
      refresh_jti: r.refreshJti,
      user_agent: r.userAgent,
      client_ip: r.clientIp,
      device_fingerprint: r.deviceFingerprint,
      last_seen_at: r.now,
      last_refresh_at: r.now,
    }))
    .where('id', '=', id)
    .where('status', '=', SESSION_STATUS.active)
    .where('token_version', '=', r.expectedVersion)
    .returningAll()
    .executeTakeFirst()
}

/** Revokes an active session; its token_version rises too, so older tokens fail either check. */
export function revokeSessionRow(db: Db, id: string, reason: string, now: string): Promise<SessionRow | undefined> {
  return db
    .updateTable('auth_sessions')
    .set((eb) => ({
      status: SESSION_STATUS.revoked,
      token_version: eb('token_version', '+', 1),
      revoked_at: now,
      revoke_reason: reason,
    }))
    .where('id', '=', id)
    .where('status', '=', SESSION_STATUS.active)
    .returningAll()
    .executeTakeFirst()
}

export function activeSessionIds(db: Db, userId: string, exceptSessionId = ''): Promise<string[]> {
  let q = db
    .selectFrom('auth_sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', SESSION_STATUS.active)
  if (exceptSessionId) q = q.where('id', '<>', exceptSessionId)
  return q
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => r.id))
}

export function sessionTokenState(s: SessionRow): SessionTokenState {
  return {
    session_id: s.id,
    user_id: s.user_id,
    active: s.status === SESSION_STATUS.active,
    token_version: Number(s.token_version),
  }
}

/** The base fields of an auth session view; risk fields are added by domain/session-risk.ts. */
export function sessionBaseView(s: SessionRow) {
  return {
    session_id: s.id,
    user_id: s.user_id,
    status: s.status,
    token_version: Number(s.token_version),
    tenant_id: s.tenant_id,
    workspace_id: s.workspace_id,
    user_agent: s.user_agent,
    client_ip: s.client_ip,
    device_fingerprint: s.device_fingerprint,
    created_at: s.created_at,
    last_seen_at: s.last_seen_at,
    last_refresh_at: s.last_refresh_at,
    refresh_count: Number(s.refresh_count),
    revoked_at: s.revoked_at,
  }
}
