import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { deleteMacro, findMacro, insertMacro, macroNamed, writeMacro } from '../db/macros.repository.ts'
import { displayNames, findSessionLink } from '../db/sla-projections.repository.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { renderMacro } from '../domain/macro-template.ts'
import { MacroErrors, TicketErrors } from '../errors.ts'
import type { ApplyMacroBody, CreateMacroBody, Macro, UpdateMacroBody } from '../schemas/macro.schemas.ts'
import { addSystemComment } from './macro-comment.ts'
import { scopeOf } from './sla-record.ts'

export function createMacro(svc: TicketsService, caller: Caller, body: CreateMacroBody): Promise<Macro> {
  const scope = concreteScope(caller)
  const now = nowIso()
  const macro: Macro = {
    id: newId(),
    name: body.name.trim(),
    description: body.description ?? '',
    language: body.language ?? 'en',
    content: body.content,
    active: body.active ?? true,
    ...scope,
    created_at: now,
    updated_at: now,
  }
  return svc.transaction(caller, async (tx) => {
    if (await macroNamed(tx.db, scope, macro.name, macro.id)) throw new MacroErrors.NameTaken(macro.name)
    await insertMacro(tx.db, macro)
    return macro
  })
}

export function updateMacro(svc: TicketsService, caller: Caller, id: string, body: UpdateMacroBody) {
  return svc.transaction(caller, async (tx) => {
    const before = await findMacro(tx.db, id, caller.scope)
    if (!before) throw new MacroErrors.NotFound(id)
    const patch: Partial<Macro> = { ...body, ...(body.name !== undefined ? { name: body.name.trim() } : {}) }
    if (patch.name !== undefined && (await macroNamed(tx.db, scopeOf(before), patch.name, id))) {
      throw new MacroErrors.NameTaken(patch.name)
    }
    const after: Macro = { ...before, ...patch, updated_at: nowIso() }
    await writeMacro(tx.db, id, { ...patch, updated_at: after.updated_at })
    return { before, after }
  })
}

export function removeMacro(svc: TicketsService, caller: Caller, id: string) {
  return svc.transaction(caller, async (tx) => {
    const before = await findMacro(tx.db, id, caller.scope)
    if (!before) throw new MacroErrors.NotFound(id)
    await deleteMacro(tx.db, id)
    return before
  })
}

/**
 * Applies a macro, its placeholders filled in: to a ticket, as a system comment by the caller; to a
 * conversation session, as text the console sends as the agent (conversations owns messages, so this service
 * only renders). Both must lie in the macro's own scope; an inactive macro is refused (400).
 */
export function applyMacro(svc: TicketsService, caller: Caller, id: string, body: ApplyMacroBody) {
  return svc.transaction(caller, async (tx) => {
    const macro = await findMacro(tx.db, id, caller.scope)
    if (!macro) throw new MacroErrors.NotFound(id)
    if (!macro.active) throw new MacroErrors.Inactive(id)
    const scope = scopeOf(macro)
    const agent = caller.actor.user_id
    if (body.ticket_id !== undefined) {
      const ticket = await findTicket(tx.db, body.ticket_id, scope)
      if (!ticket) throw new TicketErrors.NotFound(body.ticket_id)
      const names = await displayNames(tx.db, scope, { customer: ticket.customer_id, agent })
      const content = renderMacro(macro.content, {
        'customer.name': names.customer,
        'ticket.id': ticket.id,
        'agent.name': names.agent,
      })
      const comment = await addSystemComment(tx, ticket, content)
      return { kind: 'ticket' as const, result: { macro_id: macro.id, ticket_id: ticket.id, content, comment } }
    }
    const sessionId = body.session_id!
    // a session this service has not heard of yet (or of another scope) renders with what is known: nothing
    const link = await findSessionLink(tx.db, scope, sessionId)
    const names = await displayNames(tx.db, scope, { customer: link?.customer_id, agent })
    const content = renderMacro(macro.content, {
      'customer.name': names.customer,
      'ticket.id': link?.ticket_id ?? '',
      'agent.name': names.agent,
    })
    return { kind: 'session' as const, result: { macro_id: macro.id, session_id: sessionId, content } }
  })
}
