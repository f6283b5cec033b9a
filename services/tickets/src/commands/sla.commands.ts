import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { findCalendar, type StoredCalendar, upsertCalendar } from '../db/business-hours.repository.ts'
import {
  clashingConfig,
  deleteSlaConfig,
  findSlaConfig,
  insertSlaConfig,
  writeSlaConfig,
} from '../db/sla-configs.repository.ts'
import { findViolation, markResolved, violationOf } from '../db/sla-violations.repository.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { type Calendar, calendarProblem } from '../domain/business-hours.ts'
import { timesProblem } from '../domain/sla-rules.ts'
import { SlaErrors, TicketErrors } from '../errors.ts'
import type {
  CreateSlaConfigBody,
  SlaCheckResult,
  SlaConfig,
  SlaViolation,
  UpdateSlaConfigBody,
} from '../schemas/sla.schemas.ts'
import { recordViolations, standing, violationFor } from './sla-record.ts'

/** The same rules for a new config and for a config after an update; a clash names which key. */
async function checkConfig(db: Parameters<typeof clashingConfig>[0], config: SlaConfig) {
  const problem = timesProblem(config)
  if (problem) throw new SlaErrors.InvalidConfig(problem)
  const clash = await clashingConfig(db, config, config)
  if (clash === 'match') throw new SlaErrors.ConfigExists(config.priority, config.customer_tier || "'' (any)")
  if (clash === 'name') throw new SlaErrors.NameTaken(config.name)
}

export function createSlaConfig(svc: TicketsService, caller: Caller, body: CreateSlaConfigBody): Promise<SlaConfig> {
  const scope = concreteScope(caller)
  const now = nowIso()
  const config: SlaConfig = {
    id: newId(),
    name: body.name.trim(),
    priority: body.priority,
    customer_tier: body.customer_tier ?? '',
    tags: [...new Set(body.tags ?? [])],
    warning_threshold: body.warning_threshold ?? 80,
    first_response_time: body.first_response_time,
    resolution_time: body.resolution_time,
    escalation_time: body.escalation_time,
    business_hours_only: body.business_hours_only ?? false,
    active: body.active ?? true,
    ...scope,
    created_at: now,
    updated_at: now,
  }
  return svc.transaction(caller, async (tx) => {
    await checkConfig(tx.db, config)
    await insertSlaConfig(tx.db, config)
    return config
  })
}

export function updateSlaConfig(svc: TicketsService, caller: Caller, id: string, body: UpdateSlaConfigBody) {
  return svc.transaction(caller, async (tx) => {
    const before = await findSlaConfig(tx.db, id, caller.scope)
    if (!before) throw new SlaErrors.ConfigNotFound(id)
    const patch: Partial<SlaConfig> = { ...body, updated_at: nowIso() }
    if (body.name !== undefined) patch.name = body.name.trim()
    const after: SlaConfig = { ...before, ...patch }
    await checkConfig(tx.db, after)
    await writeSlaConfig(tx.db, id, patch)
    return { before, after }
  })
}

export function removeSlaConfig(svc: TicketsService, caller: Caller, id: string) {
  return svc.transaction(caller, async (tx) => {
    const before = await findSlaConfig(tx.db, id, caller.scope)
    if (!before) throw new SlaErrors.ConfigNotFound(id)
    // its violations stay: they carry the priority and tier they were measured by
    await deleteSlaConfig(tx.db, id)
    return before
  })
}

export function resolveViolation(svc: TicketsService, caller: Caller, id: string) {
  return svc.transaction(caller, async (tx) => {
    const before = await findViolation(tx.db, id, caller.scope)
    if (!before) throw new SlaErrors.ViolationNotFound(id)
    const at = nowIso()
    if (!(await markResolved(tx.db, id, at))) throw new SlaErrors.ViolationResolved(id)
    return { before, after: { ...before, resolved: true, resolved_at: at } as SlaViolation }
  })
}

/**
 * `POST /api/sla/check/ticket/:id`: measures the ticket now, records what it breached (announced like the
 * monitor's), and answers the first breach (first response before resolution), or undefined when none.
 */
export function checkTicket(svc: TicketsService, caller: Caller, id: string): Promise<SlaCheckResult | undefined> {
  return svc.transaction(caller, async (tx) => {
    const ticket = await findTicket(tx.db, id, caller.scope)
    if (!ticket) throw new TicketErrors.NotFound(id)
    const row = await tx.db.selectFrom('tickets').select('first_response_at').where('id', '=', id).executeTakeFirst()
    const slaTicket = { ...ticket, first_response_at: row?.first_response_at ?? null }
    const now = new Date()
    const found = await standing(tx.db, slaTicket, now)
    if (!found) return undefined
    const breached = found.findings.filter((f) => f.violated)
    if (breached.length === 0) return undefined
    await recordViolations(
      tx,
      breached.map((f) => violationFor(ticket, found.config, found.tier, f, now.toISOString())),
    )
    const first = await violationOf(tx.db, ticket.id, found.config.id, breached[0]!.type)
    return { ...first!, ticket, sla_config: found.config }
  })
}

export function setBusinessHours(svc: TicketsService, caller: Caller, cal: Calendar) {
  const scope = concreteScope(caller)
  const problem = calendarProblem(cal)
  if (problem) throw new SlaErrors.InvalidCalendar(problem)
  return svc.transaction(caller, async (tx): Promise<{ before: StoredCalendar; after: StoredCalendar }> => {
    const before = await findCalendar(tx.db, scope)
    const now = nowIso()
    await upsertCalendar(tx.db, scope, cal, now)
    return { before, after: { time_zone: cal.time_zone, weekly: cal.weekly, updated_at: now, is_default: false } }
  })
}
