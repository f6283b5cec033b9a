/**
 * SLA rules, pure (services/tickets/README.md, SLA). A config applies to a ticket by the ticket's priority and
 * its customer's tier (the customer's priority in identity, `normal` when unknown); a config with tier ''
 * covers every tier without a config of its own. Deadlines count from `created_at`, in wall-clock minutes or, with
 * `business_hours_only`, in the scope's business time.
 */
import { addBusinessMinutes, type Calendar, subtractBusinessMinutes } from './business-hours.ts'

export const SLA_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export const SLA_TIERS = SLA_PRIORITIES
export const VIOLATION_TYPES = ['first_response', 'resolution'] as const
export type ViolationType = (typeof VIOLATION_TYPES)[number]

/** The statuses in which a ticket can still breach; resolved and closed tickets are done. */
export const SLA_OPEN_STATUSES = ['open', 'assigned', 'in_progress'] as const
export const isSlaOpen = (status: string) => (SLA_OPEN_STATUSES as readonly string[]).includes(status)

/** A customer's tier from identity's `priority`: one of the four, else `normal`. */
export function normalizeTier(priority: string | undefined | null): string {
  const p = (priority ?? '').trim().toLowerCase()
  return (SLA_TIERS as readonly string[]).includes(p) ? p : 'normal'
}

export interface SlaTimes {
  first_response_time: number
  resolution_time: number
  escalation_time: number
}

/** The reference's rule: a first response and an escalation both come before resolution. */
export function timesProblem(c: SlaTimes): string | undefined {
  if (c.first_response_time >= c.resolution_time) return 'first_response_time must be less than resolution_time'
  if (c.escalation_time >= c.resolution_time) return 'escalation_time must be less than resolution_time'
  return undefined
}

export interface MatchableConfig {
  id: string
  priority: string
  customer_tier: string
  active: boolean
}

/** The config for a ticket of `priority` whose customer is of `tier`: its own tier's, else the catch-all ''. */
export function pickConfig<C extends MatchableConfig>(configs: readonly C[], priority: string, tier: string) {
  const active = configs.filter((c) => c.active && c.priority === priority)
  return active.find((c) => c.customer_tier === tier) ?? active.find((c) => c.customer_tier === '')
}

export interface DeadlineConfig {
  first_response_time: number
  resolution_time: number
  business_hours_only: boolean
}

const minutesOf = (c: DeadlineConfig, type: ViolationType) =>
  type === 'first_response' ? c.first_response_time : c.resolution_time

/** When a ticket created at `created` breaches `type`. */
export function deadlineOf(created: Date, c: DeadlineConfig, type: ViolationType, cal: Calendar): Date {
  const minutes = minutesOf(c, type)
  return c.business_hours_only
    ? addBusinessMinutes(created, minutes, cal)
    : new Date(created.getTime() + minutes * 60_000)
}

/** Tickets created at or before this instant are past their `type` deadline at `now`: one per config and pass. */
export function cutoffOf(now: Date, c: DeadlineConfig, type: ViolationType, cal: Calendar): Date {
  const minutes = minutesOf(c, type)
  return c.business_hours_only ? subtractBusinessMinutes(now, minutes, cal) : new Date(now.getTime() - minutes * 60_000)
}

export interface SlaTicket {
  status: string
  created_at: string
  resolved_at: string | null
  first_response_at: string | null
}

export interface Finding {
  type: ViolationType
  deadline: string
  /** the moment it was met, late or not; null while still pending */
  met_at: string | null
  violated: boolean
}

/**
 * Where a ticket stands against a config at `now`. A first response is the first agent reply; a ticket resolved
 * without one stops that clock at its resolution. Resolution is met by `resolved_at` (closed tickets have one).
 */
export function evaluate(ticket: SlaTicket, c: DeadlineConfig, cal: Calendar, now: Date): Finding[] {
  const created = new Date(ticket.created_at)
  const done = isSlaOpen(ticket.status) ? null : ticket.resolved_at
  const met: Record<ViolationType, string | null> = {
    first_response: ticket.first_response_at ?? done,
    resolution: done,
  }
  return VIOLATION_TYPES.map((type) => {
    const deadline = deadlineOf(created, c, type, cal)
    const at = met[type]
    return {
      type,
      deadline: deadline.toISOString(),
      met_at: at,
      violated: (at ? new Date(at) : now).getTime() > deadline.getTime(),
    }
  })
}
