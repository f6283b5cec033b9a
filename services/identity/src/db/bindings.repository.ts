import { toJson } from '@switchboard/platform'
import type { Db } from './users.repository.ts'

/** A user's link to one tenant/workspace: an agent or a customer record (API-NOTES.md, Tenancy). */
export interface Binding {
  kind: 'agent' | 'customer'
  id: string
  tenant_id: string
  workspace_id: string
}

/** All bindings of a user, agents first, in a stable order (login picks one of them). */
export async function listBindings(db: Db, userId: string): Promise<Binding[]> {
  const [agents, customers] = await Promise.all([
    db
      .selectFrom('agents')
      .select(['id', 'tenant_id', 'workspace_id'])
      .where('user_id', '=', userId)
      .orderBy('tenant_id')
      .orderBy('workspace_id')
      .execute(),
    db
      .selectFrom('customers')
      .select(['id', 'tenant_id', 'workspace_id'])
      .where('user_id', '=', userId)
      .orderBy('tenant_id')
      .orderBy('workspace_id')
      .execute(),
  ])
  return [
    ...agents.map((a) => ({ kind: 'agent' as const, ...a })),
    ...customers.map((c) => ({ kind: 'customer' as const, ...c })),
  ]
}

export interface NewCustomerBinding {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  email: string
  phone: string
  source: string
  now: string
}

/**
 * The customer record self-registration creates in the selected scope. The directory itself (update, notes,
 * tags) is customers.repository.ts; this is the one insert the auth flow needs.
 */
export async function insertCustomerBinding(db: Db, c: NewCustomerBinding) {
  return db
    .insertInto('customers')
    .values({
      id: c.id,
      user_id: c.user_id,
      tenant_id: c.tenant_id,
      workspace_id: c.workspace_id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      source: c.source,
      tags: toJson([]) ?? '[]',
      created_at: c.now,
      updated_at: c.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface NewAgentBinding {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  department: string
  now: string
}

/** Used by seeding; agent management proper is agents.repository.ts. */
export async function insertAgentBinding(db: Db, a: NewAgentBinding) {
  return db
    .insertInto('agents')
    .values({
      id: a.id,
      user_id: a.user_id,
      tenant_id: a.tenant_id,
      workspace_id: a.workspace_id,
      name: a.name,
      department: a.department,
      skills: toJson([]) ?? '[]',
      max_concurrent: 5,
      status: 'offline',
      rating: 0,
      avg_response_time: 0,
      created_at: a.now,
      updated_at: a.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}
