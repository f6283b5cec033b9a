import { IdentityEvents } from '@switchboard/contracts'
import { type ConsumerDef, on, type Scope } from '@switchboard/platform'
import { kickQueue } from '../commands/queue.commands.ts'
import type { ConversationsService } from '../context.ts'
import {
  agentOnlineSince,
  applyAgentStatus,
  projectedAgentExists,
  upsertProjectedAgent,
} from '../db/agents-projection.repository.ts'

export const AGENTS_DURABLE = 'conversations-agents'

/** How long a kick waits for the projection's commit to show before leaving the agent to the timer pass. */
const COMMIT_WAIT_MS = 5000
/** The first look again after 20 ms, then twice as long each time up to 500 ms: a handful of queries, not 250. */
const POLL_FIRST_MS = 20
const POLL_MAX_MS = 500

/**
 * The inbox transaction commits after `handle` returns and the platform offers no hook after it, so the pass
 * waits until the committed row shows the agent online (SQLite: the query queues behind the transaction; PostgreSQL:
 * a few polls, backing off). A rolled-back change never shows, and the kick gives up; so does the app's close.
 */
function kickWhenOnline(svc: ConversationsService, scope: Scope, agentId: string, at: string) {
  kickQueue(svc, scope, async (signal) => {
    const until = Date.now() + COMMIT_WAIT_MS
    for (let delay = POLL_FIRST_MS; ; delay = Math.min(delay * 2, POLL_MAX_MS)) {
      if (await agentOnlineSince(svc.db, agentId, at)) return true
      if (Date.now() > until || signal.aborted) return false
      await new Promise((r) => setTimeout(r, delay))
    }
  })
}

/**
 * identity's agent events → the `agents` projection (README "Routing"): status, skills, capacity, rating. Rows
 * are scoped by the envelope; each reflects the newest event applied (`updated_at` = its `occurred_at`), so a
 * late or replayed older event changes nothing, and the inbox applies each event once. An agent coming online
 * (or an online agent's capacity changing) kicks a queue pass for its workspace.
 */
export const agentsProjection: ConsumerDef<ConversationsService> = {
  durable: AGENTS_DURABLE,
  stream: 'IDENTITY',
  subjects: ['identity.agent.>'],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(IdentityEvents.agentUpserted, async ({ envelope, data: d }, tx, svc) => {
      const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
      const at = new Date(envelope.occurred_at).toISOString()
      if (!scope.tenant_id || !scope.workspace_id) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
      const applied = await upsertProjectedAgent(tx.db, { ...d, ...scope, updated_at: at })
      if (applied && d.status === 'online') kickWhenOnline(svc, scope, d.agent_id, at)
    }),
    on(IdentityEvents.agentStatusChanged, async ({ envelope, data: d }, tx, svc) => {
      const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
      const at = new Date(envelope.occurred_at).toISOString()
      // Replicas share this consumer, so a status change may be handled before its agent's upsert: retried, not lost
      // (looked up first: an upsert committing between the update and the look-up would drop the change silently).
      // By agent id, the key the change is applied by: a user's older agent row (re-made under a new id) is no proof.
      if (!(await projectedAgentExists(tx.db, d.agent_id))) throw new Error(`agent ${d.agent_id} not projected yet`)
      const applied = await applyAgentStatus(tx.db, d.agent_id, d.status, at)
      if (applied && d.status === 'online') kickWhenOnline(svc, scope, d.agent_id, at)
    }),
  ],
  // other identity.agent.* types are not this projection's
}
