/** Defaults of a new ticket (services/tickets/README.md). */
export const TICKET_DEFAULTS = { category: 'general', priority: 'normal', source: 'web', status: 'open' } as const

/** Tags are labels: trimmed, empty ones dropped, each kept once in first-seen order. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t.length > 0))]
}

/** The system comment a close leaves in the thread. */
export const closeComment = (reason: string | undefined): string =>
  reason?.trim() ? `Ticket closed: ${reason.trim()}` : 'Ticket closed'
