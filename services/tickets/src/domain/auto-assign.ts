/** An agent as auto-assignment sees it: from the directory projection, with its load counted here. */
export interface AssignCandidate {
  agent_id: string
  user_id: string
  status: string
  max_concurrent: number
  /** this service's open tickets (open, assigned, in progress) held by the agent */
  load: number
}

/**
 * The order auto-assignment tries agents in: online ones under capacity, the lowest load first (the earlier
 * system's rule), then by user id so that equal loads pick the same agent on every replica.
 */
export function assignOrder<C extends AssignCandidate>(candidates: readonly C[]): C[] {
  return candidates
    .filter((c) => c.status === 'online' && c.load < c.max_concurrent)
    .sort((a, b) => a.load - b.load || (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0))
}

/** Ticket statuses that count towards an agent's load. */
export const LOAD_STATUSES = ['open', 'assigned', 'in_progress'] as const
