import type { Envelope } from '@switchboard/contracts'
import { nowIso, toJson } from '@switchboard/platform'
import { waitFor } from '@switchboard/testing'
import type { ConversationsService } from '../../src/context.ts'

// Helpers of the sessions/messages tests: agents straight into the projection (its consumer is tested on its
// own), and the events the service published.

export interface AgentSeed {
  user_id: string
  status?: string
  max_concurrent?: number
  name?: string
  tenant_id?: string
  workspace_id?: string
}

export async function seedAgent(svc: ConversationsService, a: AgentSeed): Promise<void> {
  await svc.db
    .insertInto('agents')
    .values({
      agent_id: `ag-${a.user_id}-${a.tenant_id ?? 'acme'}-${a.workspace_id ?? 'support'}`,
      user_id: a.user_id,
      tenant_id: a.tenant_id ?? 'acme',
      workspace_id: a.workspace_id ?? 'support',
      name: a.name ?? '',
      department: '',
      skills: toJson([]) ?? '[]',
      max_concurrent: a.max_concurrent ?? 5,
      status: a.status ?? 'online',
      rating: 5,
      avg_response_time: 0,
      updated_at: nowIso(),
    })
    .execute()
}

export interface CustomerSeed {
  user_id: string
  customer_id?: string
  tenant_id?: string
  workspace_id?: string
}

/** A customer straight into the projection (its consumer is tested on its own); record id `cu-<user>` by default. */
export async function seedCustomer(svc: ConversationsService, c: CustomerSeed): Promise<void> {
  await svc.db
    .insertInto('customers')
    .values({
      customer_id: c.customer_id ?? `cu-${c.user_id}`,
      user_id: c.user_id,
      tenant_id: c.tenant_id ?? 'acme',
      workspace_id: c.workspace_id ?? 'support',
      updated_at: nowIso(),
    })
    .execute()
}

/** Every conversations event published so far whose data names `sessionId`, in order. */
export async function sessionEvents(svc: ConversationsService, sessionId: string): Promise<Envelope[]> {
  const out: Envelope[] = []
  await svc.bus.replay('CONVERSATIONS', {}, async (d) => {
    const data = d.envelope.data as { session_id?: string; session?: { session_id?: string } }
    if (data.session_id === sessionId || data.session?.session_id === sessionId) out.push(d.envelope)
  })
  return out
}

/** Waits until `count` events of the session are published (the relay runs after the commit). */
export const eventsOf = (svc: ConversationsService, sessionId: string, count: number) =>
  waitFor(async () => {
    const events = await sessionEvents(svc, sessionId)
    return events.length >= count ? events : undefined
  })
