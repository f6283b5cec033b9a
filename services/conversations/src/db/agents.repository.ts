import { fromJson, type Scope, type Tx, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import { WORKING_STATUSES } from '../domain/session-rules.ts'
import type { AgentsTable, ConversationsDatabase } from './database.ts'

type Db = Kysely<ConversationsDatabase>
export type AgentRow = Selectable<AgentsTable>

export interface Agent {
  agent_id: string
  user_id: string
  name: string
  department: string
  skills: string[]
  max_concurrent: number
  status: string
  rating: number
  avg_response_time: number
}

export const toAgent = (r: AgentRow): Agent => ({
  agent_id: r.agent_id,
  user_id: r.user_id,
  name: r.name,
  department: r.department,
  skills: fromJson<string[]>(r.skills, []),
  max_concurrent: Number(r.max_concurrent),
  status: r.status,
  rating: Number(r.rating),
  avg_response_time: Number(r.avg_response_time),
})

/**
 * The agent (by user id) of a scope, its row locked until `tx` ends: every assignment to one agent goes through this
 * lock, so concurrent replicas count its load one after another and never pass its capacity.
 */
export async function findAgentByUserForUpdate(
  tx: Tx<ConversationsDatabase>,
  userId: string,
  scope: Scope,
): Promise<AgentRow | undefined> {
  return tx
    .forUpdate(whereScope(tx.db.selectFrom('agents').selectAll().where('user_id', '=', userId), scope))
    .executeTakeFirst()
}

/** The agent of a scope by identity's agent id (the `:id` of `/api/agents/:id/…`); another tenant's is none. */
export function findAgentById(db: Db, agentId: string, scope: Scope): Promise<AgentRow | undefined> {
  return whereScope(db.selectFrom('agents').selectAll().where('agent_id', '=', agentId), scope).executeTakeFirst()
}

/** Online agents of a scope with their current load (open sessions assigned to them). */
export async function onlineAgentsWithLoad(db: Db, scope: Scope): Promise<Array<Agent & { load: number }>> {
  const rows = await whereScope(
    db
      .selectFrom('agents')
      .selectAll('agents')
      .select((eb) =>
        eb
          .selectFrom('sessions')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('sessions.agent_id', '=', 'agents.user_id')
          .whereRef('sessions.tenant_id', '=', 'agents.tenant_id')
          .whereRef('sessions.workspace_id', '=', 'agents.workspace_id')
          .where('sessions.status', 'in', [...WORKING_STATUSES])
          .as('load'),
      )
      .where('agents.status', '=', 'online'),
    scope,
    'agents',
  ).execute()
  return rows.map((r) => ({ ...toAgent(r), load: Number(r.load ?? 0) }))
}
