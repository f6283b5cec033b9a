import { TypeCompiler } from '@sinclair/typebox/compiler'
import { hasPermission } from '@switchboard/auth'
import { TicketEvents, TicketSlaEvents } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import { frame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { deliver } from './registry.ts'

/**
 * tickets' events → a `ticket` frame on every console of the event's scope whose principal may read tickets (a
 * console's ticket list and detail follow them live). Only the ticket events below: ratings, surveys (whose event
 * carries the survey link) and the session link never leave the hub.
 */

const checks = {
  created: TypeCompiler.Compile(TicketEvents.created.data),
  updated: TypeCompiler.Compile(TicketEvents.updated.data),
  statusChanged: TypeCompiler.Compile(TicketEvents.statusChanged.data),
  commented: TypeCompiler.Compile(TicketEvents.commented.data),
  closed: TypeCompiler.Compile(TicketEvents.closed.data),
  violated: TypeCompiler.Compile(TicketSlaEvents.violated.data),
}

export const TICKET_READ = 'tickets.read'

type Facts = (typeof TicketEvents.created.data)['static']

const facts = (t: Facts) => ({
  ticket_id: t.ticket_id,
  title: t.title ?? null,
  status: t.status,
  priority: t.priority,
  category: t.category,
  agent_id: t.agent_id,
  customer_id: t.customer_id,
  created_at: t.created_at,
})

/** The `data` of the frame an event becomes, or undefined (not one consoles get, or off its contract). */
function ticketFrameData(type: string, data: unknown): Record<string, unknown> | undefined | 'invalid' {
  switch (type) {
    case TicketEvents.created.type:
      return checks.created.Check(data) ? { event: 'created', ...facts(data) } : 'invalid'
    case TicketEvents.updated.type:
      return checks.updated.Check(data) ? { event: 'updated', ...facts(data.ticket), changed: data.changed } : 'invalid'
    case TicketEvents.statusChanged.type:
      return checks.statusChanged.Check(data) ? { event: 'status_changed', ...data } : 'invalid'
    case TicketEvents.commented.type:
      return checks.commented.Check(data)
        ? { event: 'commented', ticket_id: data.ticket_id, comment_id: data.comment_id, type: data.type }
        : 'invalid'
    case TicketEvents.closed.type:
      return checks.closed.Check(data) ? { event: 'closed', ...data } : 'invalid'
    case TicketSlaEvents.violated.type:
      return checks.violated.Check(data)
        ? {
            event: 'sla_violated',
            ticket_id: data.ticket_id,
            violation_type: data.violation_type,
            deadline: data.deadline,
            violated_at: data.violated_at,
          }
        : 'invalid'
    default:
      return undefined
  }
}

export function createTicketFanout(h: HubContext) {
  return async function onTicketEvent({ envelope }: Delivery): Promise<void> {
    const data = ticketFrameData(envelope.type, envelope.data)
    if (data === undefined) return
    if (data === 'invalid') {
      h.log.warn({ type: envelope.type }, 'hub: an event off its contract was not delivered')
      return
    }
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    const f = frame('ticket', data)
    for (const c of h.registry.consolesIn(scope)) {
      if (c.principal && hasPermission(c.principal.permissions, TICKET_READ)) deliver(c, undefined, f)
    }
  }
}
