import { type Scope, systemCaller } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { allCalendars } from '../db/business-hours.repository.ts'
import { activeConfigs } from '../db/sla-configs.repository.ts'
import { type Breach, findBreaches, MATCH_CHUNK, markOpenTickets } from '../db/sla-monitor.repository.ts'
import type { Calendar } from '../domain/business-hours.ts'
import { matchTable } from '../domain/sla-match.ts'
import { deadlineOf, type ViolationType } from '../domain/sla-rules.ts'
import type { SlaConfig, SlaViolation } from '../schemas/sla.schemas.ts'
import { insertAndAnnounce, violationFor } from './sla-record.ts'

type CalendarOf = (scope: Scope) => Calendar

const RECORDERS = 2

/**
 * One pass of the SLA monitor at `now`. The per-config work (which config applies to which scope, priority and
 * customer tier; the cutoffs, in business time where asked) is done once, in memory; the tickets are matched
 * against it by one SQL statement per 500 match rows, reading at most `sla_monitor_scan_limit` breaches at a
 * time, recorded `sla_monitor_batch_size` per transaction. The database referees: marks on the ticket are set
 * only while it is still open (waiting for a concurrent close), and the unique (ticket, config, type) key with
 * ON CONFLICT DO NOTHING records each breach once however many passes or replicas see it. Only rows a pass
 * inserted are announced (`tickets.sla.violated`, through the outbox). Answers how many it recorded.
 */
export async function slaPass(svc: TicketsService, now: Date, signal?: AbortSignal): Promise<number> {
  const configs = await activeConfigs(svc.db)
  if (configs.length === 0) return 0
  const calendarOf = await allCalendars(svc.db)
  const rows = matchTable(configs, calendarOf, now)
  const byId = new Map(configs.map((c) => [c.id, c]))
  const { sla_monitor_scan_limit: scanLimit, sla_monitor_batch_size: batch } = svc.config
  let recorded = 0
  for (let i = 0; i < rows.length; i += MATCH_CHUNK) {
    const chunk = rows.slice(i, i + MATCH_CHUNK)
    for (;;) {
      if (signal?.aborted) return recorded
      const found = await findBreaches(svc.db, svc.dialect, chunk, scanLimit)
      let marked = 0
      const batches: Breach[][] = []
      for (let j = 0; j < found.length; j += batch) batches.push(found.slice(j, j + batch))
      // two transactions at a time: their tickets are disjoint (one breach row per ticket), so they never wait on
      // each other, and the database's second core does the other half of the outbox writes
      for (let j = 0; j < batches.length; j += RECORDERS) {
        if (signal?.aborted) return recorded
        const done = await Promise.all(
          batches.slice(j, j + RECORDERS).map((b) => record(svc, b, byId, calendarOf, now.toISOString())),
        )
        for (const d of done) {
          marked += d.marked
          recorded += d.recorded
        }
      }
      // a short scan was the last; one that marked nothing (all closed meanwhile) would only repeat itself
      if (found.length < scanLimit || marked === 0) break
    }
  }
  return recorded
}

async function record(
  svc: TicketsService,
  found: Breach[],
  byId: Map<string, SlaConfig>,
  calendarOf: CalendarOf,
  at: string,
): Promise<{ marked: number; recorded: number }> {
  return svc.transaction(systemCaller(), async (tx) => {
    const marks = found.map((b) => ({
      ticket_id: b.ticket_id,
      config_id: b.config_id,
      first_response: Boolean(b.first_response),
      resolution: Boolean(b.resolution),
    }))
    const open = new Map((await markOpenTickets(tx.db, svc.dialect, marks)).map((r) => [r.id, r.first_response_at]))
    const violations: SlaViolation[] = []
    for (const b of found) {
      if (!open.has(b.ticket_id)) continue // closed while the pass looked: nothing to record
      const config = byId.get(b.config_id)!
      const add = (type: ViolationType, wallClock: string) => {
        // business time per breach (the SQL knows wall-clock minutes only); a handful per pass in steady state
        const deadline = config.business_hours_only
          ? deadlineOf(new Date(b.created_at), config, type, calendarOf(b)).toISOString()
          : new Date(wallClock).toISOString()
        violations.push(violationFor({ ...b, id: b.ticket_id }, config, b.tier, { type, deadline, met_at: null }, at))
      }
      // answered since the scan: no first-response breach after all
      if (b.first_response && open.get(b.ticket_id) === null) add('first_response', b.fr_deadline)
      if (b.resolution) add('resolution', b.res_deadline)
    }
    const inserted = await insertAndAnnounce(tx, violations)
    return { marked: open.size, recorded: inserted.length }
  })
}
