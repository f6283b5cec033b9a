import { toJson } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { AgentRow } from './agents.repository.ts'
import type { ConversationsDatabase } from './database.ts'

// Writes of the agents projection (identity's agent events). `updated_at` holds the `occurred_at` of the event
// the row reflects, so an older event (a redelivery, a replay, a late retry) never overwrites a newer one.

type Db = Kysely<ConversationsDatabase>

export type ProjectedAgent = Omit<AgentRow, 'skills'> & { skills: string[] }

/**
 * Inserts or refreshes an agent as of `agent.updated_at`; true when the row now reflects it. A user re-made an
 * agent of the same workspace under a new agent id replaces the older row (one agent per user and workspace).
 */
export async function upsertProjectedAgent(db: Db, agent: ProjectedAgent): Promise<boolean> {
  await db
    .deleteFrom('agents')
    .where('tenant_id', '=', agent.tenant_id)
    .where('workspace_id', '=', agent.workspace_id)
    .where('user_id', '=', agent.user_id)
    .where('agent_id', '!=', agent.agent_id)
    .where('updated_at', '<=', agent.updated_at)
    .execute()
  const values = { ...agent, skills: toJson(agent.skills) ?? '[]' }
  const { agent_id: _id, ...changes } = values
  const result = await db
    .insertInto('agents')
    .values(values)
    .onConflict((oc) => oc.column('agent_id').doUpdateSet(changes).where('agents.updated_at', '<=', agent.updated_at))
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** An agent's status as of `at`; false when the agent is unknown here or the row is newer already. */
export async function applyAgentStatus(db: Db, agentId: string, status: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('agents')
    .set({ status, updated_at: at })
    .where('agent_id', '=', agentId)
    .where('updated_at', '<=', at)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Whether the projection holds the agent (by agent id, the key status changes are applied by). */
export async function projectedAgentExists(db: Db, agentId: string): Promise<boolean> {
  const row = await db.selectFrom('agents').select('agent_id').where('agent_id', '=', agentId).executeTakeFirst()
  return row !== undefined
}

/** Whether the agent's row, as committed, shows it online as of `at` or later (the consumer's after-commit check). */
export async function agentOnlineSince(db: Db, agentId: string, at: string): Promise<boolean> {
  const row = await db
    .selectFrom('agents')
    .select(['status', 'updated_at'])
    .where('agent_id', '=', agentId)
    .executeTakeFirst()
  return row !== undefined && row.status === 'online' && Date.parse(row.updated_at) >= Date.parse(at)
}
