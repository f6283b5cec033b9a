// The chaos bench's report (chaos.bench.ts): one kill's record, and the lines printed after a run.
import type { exactlyOnce } from './chaos-checks.ts'
import { cpuText } from './machine.ts'

/** One kill of the run and the requests it failed. */
export interface KillRecord {
  target: string
  killed_at_s: number
  ready_at_s: number
  /** requests sent in the second after the kill */
  requests_that_second: number
  /** requests that failed between this kill and the next (or the end) */
  failed: number
  /** of them, sent before the kill: in flight when it came */
  failed_in_flight: number
  /** of them, sent after the kill (to a dead replica the gateways had not ejected yet, or refused while down) */
  failed_sent_after: number
  /** the issue's figure: what the kill itself failed (in flight) against the requests of that second */
  failed_in_flight_percent_of_that_second: number
  /** when the last failed request was sent, seconds after the kill (negative: every failure was in flight) */
  last_failure_after_s: number | null
  /** by kind and status (or the connection's error) */
  failed_by_kind: Record<string, number>
}

export function print(r: any) {
  console.log(
    `chaos: ${r.requests} requests (${r.requests_per_s}/s) in ${r.load_ended_s} s, ${r.failed} failed (${r.failed_before_any_kill} before any kill); refused connections sent to the other gateway: ${r.refused_then_sent_to_the_other_gateway}`,
  )
  console.log(
    '| killed | at s | ready at s | requests that second | failed (in flight / sent after) | in flight, % of that second | last failed sent after s |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const k of r.kills as KillRecord[])
    console.log(
      `| ${k.target} | ${k.killed_at_s} | ${k.ready_at_s} | ${k.requests_that_second} | ${k.failed} (${k.failed_in_flight} / ${k.failed_sent_after}) ${JSON.stringify(k.failed_by_kind)} | ${k.failed_in_flight_percent_of_that_second} | ${k.last_failure_after_s ?? '—'} |`,
    )
  console.log(
    `  CPU while loaded (% of one core, 2 cores): ${cpuText(r.cpu_percent_of_one_core)}; load average ${r.load_average_1m.before} → ${r.load_average_1m.after}`,
  )
  for (const [what, c] of Object.entries(r.writes as Record<string, ReturnType<typeof exactlyOnce>>))
    console.log(
      `  ${what}: ${c.accepted} accepted of ${c.written}, lost ${c.lost}, doubled ${c.doubled}, failed but stored ${c.failed_but_stored} ${c.ok ? 'OK' : `FAIL ${c.examples.join('; ')}`}`,
    )
  const a = r.audit as ReturnType<typeof exactlyOnce>
  console.log(
    `  audit by request id: ${a.accepted} accepted writes, missing ${a.lost}, doubled ${a.doubled} ${a.ok ? 'OK' : `FAIL ${a.examples.join('; ')}`}`,
  )
  const s = r.statistics
  console.log(
    `  statistics: tickets ${s.total_tickets} counted / ${s.tickets_stored} stored, messages today ${s.today_messages} / ${s.messages_stored}, sessions ${s.total_sessions} / ${s.sessions}, AI answers ${s.ai_usage_today} / ${s.ai_queries_accepted} accepted of ${s.ai_queries_sent} ${s.ok ? 'OK' : 'FAIL'}`,
  )
  const w = r.sockets
  console.log(
    `  hub clients: ${w.clients} (${w.connected_at_the_end} connected at the end), reconnects ${w.reconnects}, frames ${w.delivered}, lost ${w.lost} (${w.lost_overtaken_before_a_rejoin} overtaken before a rejoin), doubled ${w.doubled} (${w.doubled_on_one_socket} on one socket, ${w.doubled_by_resume} by a resume), out of order ${w.out_of_order} (late by p50 ${w.out_of_order_late_ms.p50} ms, max ${w.out_of_order_late_ms.max} ms), error frames ${w.error_frames} ${w.error_frame_examples.join('; ')} ${w.ok ? 'OK' : `FAIL ${w.examples.join('; ')}`}`,
  )
  console.log(`  failures by kind and status: ${JSON.stringify(r.failures_by_kind_and_status)}`)
}
