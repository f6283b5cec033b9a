/**
 * Ticket status rules, pure (no Fastify, no Kysely).
 *
 * | from        | to (PUT status, assign)          | notes                                             |
 * |-------------|----------------------------------|---------------------------------------------------|
 * | open        | assigned                         | needs an agent: POST /:id/assign sets one         |
 * | assigned    | in_progress, resolved, open      | resolved directly: in_progress is optional        |
 * | in_progress | resolved, open                   | open = reopen (back to the queue, agent kept)     |
 * | resolved    | closed                           | no reopen: resolved_at already counted in statistics |
 * | closed      | —                                | terminal                                          |
 *
 * Not allowed, on purpose: open → in_progress and open → resolved (work and resolution need an agent;
 * a ticket nobody works on is closed instead), resolved → open (a new problem is a new ticket, and
 * reopening would rewrite that day's resolved_tickets). A status equal to the current one is a no-op,
 * not a transition. POST /:id/close closes from any state but closed.
 */
export const TICKET_STATUSES = ['open', 'assigned', 'in_progress', 'resolved', 'closed'] as const
export type TicketStatus = (typeof TICKET_STATUSES)[number]

export const TRANSITIONS: Readonly<Record<TicketStatus, readonly TicketStatus[]>> = {
  open: ['assigned'],
  assigned: ['in_progress', 'resolved', 'open'],
  in_progress: ['resolved', 'open'],
  resolved: ['closed'],
  closed: [],
}

export type TransitionCheck = { ok: true; changed: boolean } | { ok: false; reason: 'invalid' | 'agent_required' }

export const isTicketStatus = (value: string): value is TicketStatus =>
  (TICKET_STATUSES as readonly string[]).includes(value)

/** May a ticket in `from` be moved to `to` by an update? `hasAgent`: the ticket has an agent_id. */
export function checkTransition(from: TicketStatus, to: TicketStatus, hasAgent: boolean): TransitionCheck {
  if (from === to) return { ok: true, changed: false }
  if (!TRANSITIONS[from].includes(to)) return { ok: false, reason: 'invalid' }
  if (to === 'assigned' && !hasAgent) return { ok: false, reason: 'agent_required' }
  return { ok: true, changed: true }
}

/** POST /:id/close: from anything but closed. */
export const canClose = (from: TicketStatus): boolean => from !== 'closed'

/**
 * POST /:id/assign: an open ticket becomes assigned; an assigned or in-progress one changes hands and
 * keeps its status; a resolved or closed one can't be assigned (null).
 */
export function statusAfterAssign(from: TicketStatus): TicketStatus | null {
  if (from === 'open') return 'assigned'
  if (from === 'assigned' || from === 'in_progress') return from
  return null
}

/**
 * Unassigning (bulk `unassign_agent`): a ticket nobody holds goes back to the queue, open, since assigned and
 * in-progress work need an agent; a resolved or closed ticket keeps the agent who did the work (null: refused).
 */
export function statusAfterUnassign(from: TicketStatus): TicketStatus | null {
  if (from === 'open' || from === 'assigned' || from === 'in_progress') return 'open'
  return null
}

/** Timestamps set on entering `to`: resolved_at on resolution, and on a close that skipped it. */
export function stampsFor(
  to: TicketStatus,
  current: { resolved_at: string | null },
  now: string,
): { resolved_at?: string; closed_at?: string } {
  if (to === 'resolved') return { resolved_at: now }
  if (to === 'closed') return { closed_at: now, resolved_at: current.resolved_at ?? now }
  return {}
}
