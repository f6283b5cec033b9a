import type { Caller } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { normalizeTags } from '../domain/ticket.ts'
import { TicketErrors } from '../errors.ts'
import type { BulkBody, BulkResult } from '../schemas/ticket-views.schemas.ts'
import { assignIn, load, scopeOfTicket, type TicketsTx, unassignIn, updateIn } from './ticket.commands.ts'
import { agentOf } from './ticket-references.ts'

/** What a bulk request asks, checked once before any ticket is touched. */
function checkBulk(body: BulkBody): void {
  const problems: string[] = []
  if (body.agent_id !== undefined && body.unassign_agent) {
    problems.push('body.unassign_agent: cannot be combined with body.agent_id')
  }
  if (body.set_tags !== undefined && (body.add_tags !== undefined || body.remove_tags !== undefined)) {
    problems.push('body.set_tags: cannot be combined with add_tags or remove_tags')
  }
  const acts =
    body.status !== undefined ||
    body.set_tags !== undefined ||
    body.add_tags !== undefined ||
    body.remove_tags !== undefined ||
    body.agent_id !== undefined ||
    body.unassign_agent === true
  if (!acts)
    problems.push('body: nothing to change (status, set_tags, add_tags, remove_tags, agent_id, unassign_agent)')
  if (problems.length > 0) throw new TicketErrors.InvalidBulk(problems.join('; '))
}

/**
 * POST /api/tickets/bulk: each ticket in its own transaction, by the same rules as the single-ticket routes
 * (assign, PUT status, PUT tags), in that order; a ticket that can't take the whole change keeps none of it and is
 * listed under `failed` with the error the single route would have answered. An agent unknown in the caller's
 * scope fails the request before any ticket is touched.
 */
export async function bulkUpdate(svc: TicketsService, caller: Caller, body: BulkBody): Promise<BulkResult> {
  checkBulk(body)
  let agentId: string | undefined
  if (body.agent_id !== undefined && caller.scope.tenant_id && caller.scope.workspace_id) {
    agentId = await svc.transaction(caller, async (tx) => (await agentOf(tx, body.agent_id!, caller.scope)).user_id)
  }
  const result: BulkResult = { updated: [], failed: [] }
  for (const id of [...new Set(body.ticket_ids)]) {
    try {
      await svc.transaction(caller, (tx) => applyOne(tx, id, body, agentId))
      result.updated.push(id)
    } catch (err) {
      const e = err as { statusCode?: number; code?: string; message?: string }
      // only the client errors a single route would answer; anything else is a failure of the request itself
      if (!e.statusCode || e.statusCode >= 500) throw err
      result.failed.push({ ticket_id: id, error: e.message ?? 'failed', code: e.code ?? 'FAILED' })
    }
  }
  return result
}

async function applyOne(tx: TicketsTx, id: string, body: BulkBody, agentId?: string) {
  const reason = body.reason?.trim() ?? ''
  // 404 for a ticket outside the caller's scope, before anything else is looked at
  const ticket = await load(tx, id)
  if (body.agent_id !== undefined) {
    // a scoped caller's agent was checked once; an unscoped admin's must belong to each ticket's own scope
    const agent = agentId ?? (await agentOf(tx, body.agent_id, scopeOfTicket(ticket))).user_id
    await assignIn(tx, id, agent, reason)
  }
  if (body.unassign_agent) await unassignIn(tx, id, reason)
  if (body.status !== undefined) await updateIn(tx, id, { status: body.status }, reason)
  let tags: string[] | undefined
  if (body.set_tags !== undefined) tags = body.set_tags
  else if (body.add_tags !== undefined || body.remove_tags !== undefined) {
    const current = (await load(tx, id)).tags
    const drop = new Set(normalizeTags(body.remove_tags ?? []))
    tags = [...current.filter((t) => !drop.has(t)), ...(body.add_tags ?? [])]
  }
  if (tags !== undefined) await updateIn(tx, id, { tags })
}
