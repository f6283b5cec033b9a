import { loadsOf } from '../db/agent-sessions.repository.ts'
import { type AgentRow, agentView } from '../db/agents.repository.ts'
import type { Db } from '../db/users.repository.ts'

/**
 * Agents as the API shows them: the record and its `current_load` — the open sessions it handles in its workspace,
 * as conversations' events told (consumers/agent-load.consumer.ts), so it may trail a change by the events' delay.
 */
export async function agentViewsWithLoad(db: Db, rows: readonly AgentRow[]) {
  const load = await loadsOf(db, rows)
  return rows.map((a) => ({ ...agentView(a), current_load: load(a) }))
}

export async function agentViewWithLoad(db: Db, row: AgentRow) {
  const [view] = await agentViewsWithLoad(db, [row])
  return view!
}
