/**
 * The waiting queue's order and what a waiting customer is told: their position and an estimated wait. Pure.
 */

/** The queue's order key (column `priority_rank`): higher is served first, then the oldest. */
export const PRIORITY_RANK: Readonly<Record<string, number>> = { urgent: 3, high: 2, normal: 1, low: 0 }

/** An unknown priority queues as normal rather than failing a customer's hand-over. */
export const priorityRank = (priority: string) => PRIORITY_RANK[priority] ?? 1

/** How far back recent assignments are counted for the estimate. */
export const ESTIMATE_WINDOW_MS = 3_600_000

/** The scope's hand-overs to a human within the window. */
export interface RecentAssignments {
  count: number
}

/**
 * Average seconds between assignments: the window over the number of assignments in it (the scope's rate over
 * the last hour). The whole window, not the time since the oldest one: one assignment a moment ago says the floor
 * served one this hour, not that it serves one every few milliseconds. Null when nothing was assigned in the
 * window: no honest estimate.
 */
export function assignmentInterval(recent: RecentAssignments, windowMs = ESTIMATE_WINDOW_MS): number | null {
  if (recent.count <= 0) return null
  return windowMs / 1000 / recent.count
}

/**
 * The estimate for a position (1 = next): that many assignments have to happen before this customer's.
 * Null when the rate is unknown.
 */
export function estimatedWaitSeconds(position: number, intervalSeconds: number | null): number | null {
  if (intervalSeconds === null) return null
  return Math.max(0, Math.round(position * intervalSeconds))
}

/** Whole seconds between queueing and now, never negative (replica clocks differ slightly). */
export const waitedSeconds = (queuedAt: string, now: string) =>
  Math.max(0, Math.round((Date.parse(now) - Date.parse(queuedAt)) / 1000))
