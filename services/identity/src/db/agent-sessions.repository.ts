import { incomingIsNewer, type Version } from '@switchboard/platform'
import type { AgentSessionsTable } from './database.ts'
import type { Db } from './users.repository.ts'

/** The session statuses that hold an agent's seat (conversations' WORKING_STATUSES: open and handled). */
export const LOAD_STATUSES = ['active', 'transferred'] as const

export type AgentSessionRow = AgentSessionsTable & Version

/** A session as an event of conversations describes it; an older event than the row's changes nothing. */
export async function projectAgentSession(db: Db, row: AgentSessionRow): Promise<void> {
  const { session_id: _id, ...changes } = row
  await db
    .insertInto('agent_sessions')
    .values(row)
    .onConflict((oc) => oc.column('session_id').doUpdateSet(changes).where(incomingIsNewer('agent_sessions')))
    .execute()
}

export interface LoadKey {
  user_id: string
  tenant_id: string
  workspace_id: string
}

const keyOf = (k: LoadKey) => `${k.tenant_id}\u0000${k.workspace_id}\u0000${k.user_id}`

/**
 * The open sessions each agent handles in its own workspace (`current_load`), in one query for a page of agents.
 * Agents with none are absent from the map (load 0).
 */
export async function loadsOf(db: Db, agents: readonly LoadKey[]): Promise<(k: LoadKey) => number> {
  if (agents.length === 0) return () => 0
  const rows = await db
    .selectFrom('agent_sessions')
    .select(['tenant_id', 'workspace_id', 'agent_user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('agent_user_id', 'in', [...new Set(agents.map((a) => a.user_id))])
    .where('status', 'in', [...LOAD_STATUSES])
    .groupBy(['tenant_id', 'workspace_id', 'agent_user_id'])
    .execute()
  const loads = new Map(
    rows.map((r) => [
      keyOf({ user_id: r.agent_user_id ?? '', tenant_id: r.tenant_id, workspace_id: r.workspace_id }),
      Number(r.n),
    ]),
  )
  return (k) => loads.get(keyOf(k)) ?? 0
}
