import { createError } from '@switchboard/platform'

/** This service's error catalog; codes are stable and prefixed (STYLE point 9). */
export const TicketErrors = {
  /** also the answer for a ticket outside the caller's tenant/workspace, so existence is not revealed */
  NotFound: createError('TICKETS_NOT_FOUND', 'ticket %s not found', 404),
  InvalidTransition: createError('TICKETS_INVALID_TRANSITION', 'cannot change status from %s to %s', 409),
  NotAssignable: createError('TICKETS_NOT_ASSIGNABLE', 'cannot assign a ticket in status %s', 409),
  AgentRequired: createError(
    'TICKETS_AGENT_REQUIRED',
    'cannot change status from %s to %s without an agent: use POST /api/tickets/:id/assign',
    409,
  ),
}
