import type { Binding } from '../domain/scope-selection.ts'
import { type AgentRow, DEFAULT_MAX_CONCURRENT, insertAgent, type NewAgent } from './agents.repository.ts'
import { type CustomerRow, insertCustomer, type NewCustomer } from './customers.repository.ts'
import type { Db } from './users.repository.ts'

export type { Binding }

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

/**
 * The customer record self-registration creates in the selected scope: a directory insert (customers.repository.ts
 * owns the directory) with no tags yet.
 */
export function insertCustomerBinding(db: Db, c: Omit<NewCustomer, 'tags'>): Promise<CustomerRow> {
  return insertCustomer(db, { ...c, tags: [] })
}

/** Used by seeding: an agent record with the defaults of agent management (agents.repository.ts). */
export function insertAgentBinding(db: Db, a: Omit<NewAgent, 'skills' | 'max_concurrent'>): Promise<AgentRow> {
  return insertAgent(db, { ...a, skills: [], max_concurrent: DEFAULT_MAX_CONCURRENT })
}
