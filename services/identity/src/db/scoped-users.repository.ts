import { type Scope, whereScope } from '@switchboard/platform'
import type { Db } from './users.repository.ts'

export const isUnscoped = (scope: Scope) => !scope.tenant_id && !scope.workspace_id

/**
 * The security surface's scope rule (services/identity/README.md): with a tenant/workspace scope, a user is
 * visible only when an agent or customer record in that scope links it. Returns the visible ids among `ids`.
 */
export async function visibleUserIds(db: Db, ids: readonly string[], scope: Scope): Promise<Set<string>> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return new Set()
  if (isUnscoped(scope)) {
    const rows = await db.selectFrom('users').select('id').where('id', 'in', wanted).execute()
    return new Set(rows.map((r) => r.id))
  }
  const [agents, customers] = await Promise.all([
    whereScope(db.selectFrom('agents').select('user_id').where('user_id', 'in', wanted), scope).execute(),
    whereScope(db.selectFrom('customers').select('user_id').where('user_id', 'in', wanted), scope).execute(),
  ])
  return new Set([...agents, ...customers].map((r) => r.user_id))
}

export async function isUserVisible(db: Db, id: string, scope: Scope): Promise<boolean> {
  return (await visibleUserIds(db, [id], scope)).has(id)
}

/**
 * Every user linked in the scope, for filtering lists (the denylist); undefined when unscoped (no filter).
 * Bounded by the size of one tenant's directory.
 */
export async function usersInScope(db: Db, scope: Scope): Promise<string[] | undefined> {
  if (isUnscoped(scope)) return undefined
  const [agents, customers] = await Promise.all([
    whereScope(db.selectFrom('agents').select('user_id'), scope).execute(),
    whereScope(db.selectFrom('customers').select('user_id'), scope).execute(),
  ])
  return [...new Set([...agents, ...customers].map((r) => r.user_id))]
}
