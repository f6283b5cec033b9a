import { Value } from '@sinclair/typebox/value'
import { type EventDef, IdentityEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { newId, nowIso, type Scope, toJson } from '@switchboard/platform'
import type { ConversationsService } from '../../src/context.ts'
import type { SessionRow } from '../../src/db/sessions.repository.ts'
import { priorityRank } from '../../src/domain/queue-estimate.ts'

// Helpers of the transfer/queue tests: rows straight into the tables (sessions, waiting records, agents) and
// identity's events published on the service's own bus.

export const ACME: Scope = { tenant_id: 'acme', workspace_id: 'support' }

export interface AgentSeed {
  user_id: string
  status?: string
  max_concurrent?: number
  skills?: string[]
  rating?: number
  avg_response_time?: number
  scope?: Scope
}

export async function seedAgents(svc: ConversationsService, agents: AgentSeed[]): Promise<void> {
  if (agents.length === 0) return
  await svc.db
    .insertInto('agents')
    .values(
      agents.map((a) => {
        const scope = a.scope ?? ACME
        return {
          agent_id: `ag-${a.user_id}-${scope.tenant_id}-${scope.workspace_id}`,
          user_id: a.user_id,
          ...scope,
          name: `Agent ${a.user_id}`,
          department: '',
          skills: toJson(a.skills ?? []) ?? '[]',
          max_concurrent: a.max_concurrent ?? 5,
          status: a.status ?? 'online',
          rating: a.rating ?? 5,
          avg_response_time: a.avg_response_time ?? 0,
          updated_at: nowIso(),
        }
      }),
    )
    .execute()
}

export function sessionRow(over: Partial<SessionRow> = {}): SessionRow {
  const now = nowIso()
  return {
    id: newId(),
    ...ACME,
    status: 'active',
    channel: 'web',
    subject: '',
    customer_id: 'cust-1',
    visitor_id: null,
    visitor_secret_hash: null,
    agent_id: null,
    ticket_id: null,
    priority: 'normal',
    message_count: 0,
    started_at: now,
    last_message_at: null,
    ended_at: null,
    updated_at: now,
    ...over,
  }
}

/** An open session without an agent (the AI answers it): what to-human starts from. */
export async function seedSession(svc: ConversationsService, over: Partial<SessionRow> = {}): Promise<SessionRow> {
  const row = sessionRow(over)
  await svc.db.insertInto('sessions').values(row).execute()
  return row
}

export interface WaitingSeed {
  scope?: Scope
  priority?: string
  queued_at?: string
}

/** Sessions already waiting for a human, as to-human leaves them, in bulk (the concurrency test seeds 300). */
export async function seedWaiting(svc: ConversationsService, seeds: WaitingSeed[]): Promise<SessionRow[]> {
  const sessions = seeds.map((s) =>
    sessionRow({ ...(s.scope ?? ACME), status: 'waiting_human', priority: s.priority ?? 'normal' }),
  )
  for (let i = 0; i < sessions.length; i += 100) {
    await svc.db
      .insertInto('sessions')
      .values(sessions.slice(i, i + 100))
      .execute()
  }
  const waiting = sessions.map((s, i) => ({
    id: newId(),
    session_id: s.id,
    tenant_id: s.tenant_id,
    workspace_id: s.workspace_id,
    status: 'waiting',
    priority: s.priority,
    priority_rank: priorityRank(s.priority),
    reason: '',
    notes: '',
    target_skills: '[]',
    queued_at: seeds[i]?.queued_at ?? nowIso(),
    assigned_at: null,
    assigned_to: null,
    cancelled_at: null,
    cancel_reason: null,
  }))
  for (let i = 0; i < waiting.length; i += 100) {
    await svc.db
      .insertInto('waiting')
      .values(waiting.slice(i, i + 100))
      .execute()
  }
  return sessions
}

/**
 * Publishes one of identity's agent events on the service's bus as identity's outbox relay would: an envelope
 * scoped to the agent's workspace, its payload checked against the contract first.
 */
export async function publishIdentity<D extends EventDef>(
  svc: ConversationsService,
  def: D,
  data: unknown,
  scope: Scope = ACME,
) {
  if (!Value.Check(def.data, data)) throw new Error(`test payload does not match ${def.type}`)
  const envelope = newEnvelope({
    type: def.type,
    ...scope,
    actor: { user_id: 'admin-1', kind: 'admin' },
    data,
  })
  await svc.bus.publish(def.type, envelope)
  return envelope
}

/** identity.agent.upserted's payload with defaults. */
export const agentFacts = (over: Partial<Record<string, unknown>> & { agent_id: string; user_id: string }) => ({
  name: `Agent ${over.user_id}`,
  department: 'support',
  skills: [],
  max_concurrent: 5,
  status: 'offline',
  rating: 5,
  avg_response_time: 0,
  ...over,
})

export { IdentityEvents }

/** The conversations events of one type published so far (the relay publishes after the commit). */
export async function published(svc: ConversationsService, type: string) {
  const out: Array<{ tenant_id: string; workspace_id: string; data: Record<string, unknown> }> = []
  await svc.bus.replay('CONVERSATIONS', {}, async (d) => {
    if (d.envelope.type === type) out.push(d.envelope as (typeof out)[number])
  })
  return out
}

/** The app's env for these tests: the timer pass out of the way, so only the test (and kicks) run the queue. */
export const QUIET_QUEUE = { QUEUE_INTERVAL_MS: '3600000' }
