import { TicketSlaEvents } from '@switchboard/contracts'
import { newId, type Scope, type Tx } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { findCalendar } from '../db/business-hours.repository.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { configsFor } from '../db/sla-configs.repository.ts'
import { markRecorded } from '../db/sla-monitor.repository.ts'
import { customerTier } from '../db/sla-projections.repository.ts'
import { insertViolations } from '../db/sla-violations.repository.ts'
import { DEFAULT_CALENDAR } from '../domain/business-hours.ts'
import { evaluate, type Finding, pickConfig, type SlaTicket } from '../domain/sla-rules.ts'
import type { SlaConfig, SlaViolation } from '../schemas/sla.schemas.ts'

type Db = Kysely<TicketsDatabase>

/** What the SLA needs of a ticket, whichever path read it. */
export interface SlaTicketRow extends SlaTicket {
  id: string
  tenant_id: string
  workspace_id: string
  priority: string
  customer_id: string
}

export const scopeOf = (r: { tenant_id: string; workspace_id: string }): Scope => ({
  tenant_id: r.tenant_id,
  workspace_id: r.workspace_id,
})

/** The config that applies to a ticket now (by its priority and its customer's tier) and where it stands. */
export async function standing(
  db: Db,
  ticket: SlaTicketRow,
  now: Date,
): Promise<{ config: SlaConfig; tier: string; findings: Finding[] } | undefined> {
  const scope = scopeOf(ticket)
  const [configs, tier] = await Promise.all([
    configsFor(db, scope, ticket.priority),
    customerTier(db, scope, ticket.customer_id),
  ])
  const config = pickConfig(configs, ticket.priority, tier)
  if (!config) return undefined
  const calendar = config.business_hours_only ? await findCalendar(db, scope) : DEFAULT_CALENDAR
  return { config, tier, findings: evaluate(ticket, config, calendar, now) }
}

/** A violation row for a finding (`tier`: the customer's, as matched); one met late is recorded resolved. */
export function violationFor(
  ticket: { id: string; tenant_id: string; workspace_id: string },
  config: Pick<SlaConfig, 'id' | 'priority'>,
  tier: string,
  f: Pick<Finding, 'type' | 'deadline' | 'met_at'>,
  detectedAt: string,
): SlaViolation {
  return {
    id: newId(),
    ticket_id: ticket.id,
    sla_config_id: config.id,
    violation_type: f.type,
    priority: config.priority,
    customer_tier: tier,
    deadline: f.deadline,
    violated_at: detectedAt,
    resolved: f.met_at !== null,
    resolved_at: f.met_at,
    tenant_id: ticket.tenant_id,
    workspace_id: ticket.workspace_id,
  }
}

/** Records violations (each once, by the unique key) and announces those this call recorded, in `tx`. */
export async function insertAndAnnounce(tx: Tx<TicketsDatabase>, rows: SlaViolation[]): Promise<SlaViolation[]> {
  const inserted = await insertViolations(tx.db, rows)
  for (const v of inserted) {
    await tx.emit(
      TicketSlaEvents.violated,
      {
        violation_id: v.id,
        ticket_id: v.ticket_id,
        sla_config_id: v.sla_config_id,
        violation_type: v.violation_type,
        priority: v.priority,
        customer_tier: v.customer_tier,
        deadline: v.deadline,
        violated_at: v.violated_at,
        resolved: v.resolved,
      },
      scopeOf(v),
    )
  }
  return inserted
}

/**
 * A ticket's own write recording what it breached (late answer, resolve, close, check): recorded and announced
 * once, and marked on the ticket so the monitor's pass skips it.
 */
export async function recordViolations(tx: Tx<TicketsDatabase>, rows: SlaViolation[]): Promise<SlaViolation[]> {
  const inserted = await insertAndAnnounce(tx, rows)
  const marks = new Map<string, { ticket: string; config: string; types: string[] }>()
  for (const v of rows) {
    const key = JSON.stringify([v.ticket_id, v.sla_config_id])
    const mark = marks.get(key) ?? { ticket: v.ticket_id, config: v.sla_config_id, types: [] }
    mark.types.push(v.violation_type)
    marks.set(key, mark)
  }
  for (const m of marks.values()) await markRecorded(tx.db, m.ticket, m.config, m.types)
  return inserted
}
