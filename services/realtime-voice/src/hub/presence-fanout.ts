import { TypeCompiler } from '@sinclair/typebox/compiler'
import { hasPermission } from '@switchboard/auth'
import { IdentityEvents } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import { frame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { deliver } from './registry.ts'

/**
 * identity's agent events → a `presence` frame on every console of the agent's tenant/workspace whose principal may
 * read agents (`agents.read`, what `GET /api/agents` asks): a supervisor's screen shows an agent going online, busy
 * or away as it happens instead of asking again on a timer. Only status and capacity leave the hub — no skills,
 * rating or response time.
 */

const checks = {
  upserted: TypeCompiler.Compile(IdentityEvents.agentUpserted.data),
  statusChanged: TypeCompiler.Compile(IdentityEvents.agentStatusChanged.data),
}

export const AGENTS_READ = 'agents.read'

function presenceFrameData(type: string, data: unknown): Record<string, unknown> | undefined | 'invalid' {
  switch (type) {
    case IdentityEvents.agentStatusChanged.type:
      return checks.statusChanged.Check(data)
        ? {
            event: 'status_changed',
            agent_id: data.agent_id,
            user_id: data.user_id,
            status: data.status,
            previous: data.previous,
          }
        : 'invalid'
    case IdentityEvents.agentUpserted.type:
      return checks.upserted.Check(data)
        ? {
            event: 'upserted',
            agent_id: data.agent_id,
            user_id: data.user_id,
            name: data.name,
            status: data.status,
            max_concurrent: data.max_concurrent,
          }
        : 'invalid'
    default:
      return undefined
  }
}

export function createPresenceFanout(h: HubContext) {
  return async function onAgentEvent({ envelope }: Delivery): Promise<void> {
    const data = presenceFrameData(envelope.type, envelope.data)
    if (data === undefined) return
    if (data === 'invalid') {
      h.log.warn({ type: envelope.type }, 'hub: an event off its contract was not delivered')
      return
    }
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    const f = frame('presence', data)
    for (const c of h.registry.consolesIn(scope)) {
      if (c.principal && hasPermission(c.principal.permissions, AGENTS_READ)) deliver(c, undefined, f)
    }
  }
}
