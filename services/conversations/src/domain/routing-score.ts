/**
 * Routing (README "Routing"): which agent a session goes to. Pure: the agents come from the projection with
 * their load counted from this service's sessions; which of them are on shift is decided by the caller.
 */

/** What routing knows of an agent. `user_id` is what sessions carry as `agent_id`. */
export interface RoutingCandidate {
  user_id: string
  status: string
  skills: readonly string[]
  max_concurrent: number
  /** open sessions assigned to the agent now */
  load: number
  rating: number
  /** seconds; 0 while identity has measured none */
  avg_response_time: number
}

/** What the session asks for. */
export interface RoutingNeed {
  skills: readonly string[]
  priority: string
}

const PRIORITY_BONUS: Readonly<Record<string, number>> = { urgent: 0.2, high: 0.1 }

const normalized = (skills: readonly string[]) =>
  new Set(skills.map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0))

/** The share (0–1) of the required skills the agent has, case-insensitively; 0 when none are required. */
export function skillMatch(have: readonly string[], want: readonly string[]): number {
  const required = normalized(want)
  if (required.size === 0) return 0
  const own = normalized(have)
  let matched = 0
  for (const s of required) if (own.has(s)) matched++
  return matched / required.size
}

/**
 * The earlier system's score: `rating + (1 − load/max)·3 + min(300/avg_response_time, 2) +
 * (matched/required)·2 + {urgent 0.2, high 0.1}`. An agent with no measured response time gets no speed bonus
 * (the earlier formula divided by zero there, which would have ranked every newcomer as the fastest).
 */
export function routingScore(a: RoutingCandidate, need: RoutingNeed): number {
  const spare = a.max_concurrent > 0 ? 1 - a.load / a.max_concurrent : 0
  const speed = a.avg_response_time > 0 ? Math.min(300 / a.avg_response_time, 2) : 0
  return a.rating + spare * 3 + speed + skillMatch(a.skills, need.skills) * 2 + (PRIORITY_BONUS[need.priority] ?? 0)
}

/** Online and under capacity: the only agents routing may pick. */
export const isAvailable = (a: RoutingCandidate) => a.status === 'online' && a.load < a.max_concurrent

/**
 * The available agents, best first. `onShift`: the user ids on an active shift now, or null when the scope does
 * not schedule shifts (then every available agent qualifies). Ties go to the lower load, then the lower user id,
 * so every replica ranks the same agents the same way.
 */
export function rankAgents<T extends RoutingCandidate>(
  agents: readonly T[],
  need: RoutingNeed,
  onShift: ReadonlySet<string> | null,
): T[] {
  return agents
    .filter((a) => isAvailable(a) && (onShift === null || onShift.has(a.user_id)))
    .map((a) => ({ a, score: routingScore(a, need) }))
    .sort(
      (x, y) =>
        y.score - x.score ||
        x.a.load - y.a.load ||
        (x.a.user_id < y.a.user_id ? -1 : x.a.user_id > y.a.user_id ? 1 : 0),
    )
    .map((x) => x.a)
}
