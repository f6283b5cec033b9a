import { type AuditRecordData, type Envelope, PRINCIPAL_HEADER } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import { type Dispatcher, request } from 'undici'
import type { GatewayMetrics } from '../metrics.ts'
import { gatewayPrincipalToken } from '../service-principal.ts'

/** The audit service's hand-over endpoint (services/audit/src/routes/internal.routes.ts). */
export const AUDIT_HANDOVER_PATH = '/internal/audit/records'

/** Records per hand-over: one request for a burst of refusals, well under the audit service's 500 and body limit. */
const BATCH = 100
/** Records held while the audit service cannot be reached; past this the newest are dropped and counted. */
export const AUDIT_QUEUE_MAX = 10_000
/** Waits between failed hand-overs (the last repeats): soon at first, then no faster than a probe. */
const RETRY_MS = [250, 1000, 5000, 15_000]

export interface AuditSinkOptions {
  /** a replica of the audit service (the upstream pool's pick), undefined when none is configured */
  pick: () => string | undefined
  internalSecret: string
  dispatcher: Dispatcher
  timeoutMs: number
  metrics: GatewayMetrics
  logger: Logger
  /** test seam: the waits between failed hand-overs */
  retryMs?: readonly number[]
}

export interface AuditSink {
  /** queues a record for the audit service; never throws, never waits */
  record(envelope: Envelope<AuditRecordData>): void
  /** records not yet handed over */
  pending(): number
  /** hands over what is queued, trying until `deadlineMs`; what is left is counted as dropped */
  close(deadlineMs?: number): Promise<void>
}

/**
 * Where the gateway's own audit records go (refusals, dead-letter replays). The gateway has no database, so it
 * hands them to the audit service over HTTP, which stores each one (idempotent by event id) before answering:
 * a record no longer rides NATS, so a NATS outage loses none (docs/architecture.md §2). Not a spool on disk (a
 * gateway pod's disk is as ephemeral as its memory) and not Redis (a second place to lose it): while the audit
 * service is unreachable the records wait here, bounded by AUDIT_QUEUE_MAX, and are handed over in order, in
 * batches, with growing waits — counted in `gateway_audit_pending`, `gateway_audit_handover_failures_total` and,
 * past the bound or at shutdown, `gateway_audit_dropped_total` (alert GatewayAuditRecordsDropped).
 */
export function createAuditSink(opts: AuditSinkOptions): AuditSink {
  const retryMs = opts.retryMs ?? RETRY_MS
  const log = opts.logger.child({ component: 'audit-sink' })
  const queue: Array<Envelope<AuditRecordData>> = []
  let sending: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  let kicked = false
  let closed = false

  const principalToken = gatewayPrincipalToken(opts.internalSecret, 'gateway-audit')

  /** One hand-over of the head of the queue; true when it was accepted (the records are stored or refused for good). */
  async function handOver(batch: Array<Envelope<AuditRecordData>>): Promise<boolean> {
    const base = opts.pick()
    if (!base) throw new Error('the audit service is not configured (UPSTREAM_AUDIT)')
    const res = await request(`${base}${AUDIT_HANDOVER_PATH}`, {
      method: 'POST',
      headers: { [PRINCIPAL_HEADER]: await principalToken(), 'content-type': 'application/json' },
      body: JSON.stringify({ records: batch }),
      signal: AbortSignal.timeout(opts.timeoutMs),
      dispatcher: opts.dispatcher,
    })
    const body = (await res.body.json().catch(() => undefined)) as
      | { rejected?: Array<{ event_id: string; error: string }> }
      | undefined
    if (res.statusCode !== 200) throw new Error(`the audit service answered ${res.statusCode}`)
    for (const r of body?.rejected ?? []) {
      opts.metrics.auditRejected.inc()
      log.error({ event_id: r.event_id, reason: r.error }, 'audit record refused by the audit service for good')
    }
    return true
  }

  function schedule(delayMs: number) {
    if (timer || closed) return
    timer = setTimeout(() => {
      timer = undefined
      void drain()
    }, delayMs)
    timer.unref()
  }

  function drain(): Promise<void> {
    if (sending) return sending
    sending = (async () => {
      while (queue.length > 0) {
        const batch = queue.slice(0, BATCH)
        try {
          await handOver(batch)
        } catch (err) {
          opts.metrics.auditHandoverFailures.inc()
          // one warning per outage, not one per attempt
          if (failures++ === 0)
            log.warn({ err, pending: queue.length }, 'audit records held: the audit service did not take them')
          schedule(retryMs[Math.min(failures - 1, retryMs.length - 1)] ?? 1000)
          return
        }
        queue.splice(0, batch.length)
        opts.metrics.auditPending.set(queue.length)
        if (failures > 0) log.info({ pending: queue.length }, 'audit records handed over again')
        failures = 0
      }
    })().finally(() => {
      sending = undefined
    })
    return sending
  }

  return {
    record(envelope) {
      if (closed || queue.length >= AUDIT_QUEUE_MAX) {
        opts.metrics.auditDropped.inc()
        log.error(
          { event_id: envelope.id, action: envelope.data.action, request_id: envelope.request_id },
          'audit record dropped: the queue is full',
        )
        return
      }
      queue.push(envelope)
      opts.metrics.auditPending.set(queue.length)
      // a burst of refusals in one turn of the event loop goes in one hand-over; after a failure the retry timer does
      if (failures > 0 || kicked) return
      kicked = true
      setImmediate(() => {
        kicked = false
        void drain()
      })
    },
    pending: () => queue.length,
    async close(deadlineMs = 5000) {
      const deadline = Date.now() + deadlineMs
      clearTimeout(timer)
      timer = undefined
      // without an audit upstream there is nobody to wait for
      while (queue.length > 0 && Date.now() < deadline && opts.pick() !== undefined) {
        await drain()
        if (queue.length > 0) await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))))
      }
      closed = true
      clearTimeout(timer)
      if (queue.length > 0) {
        opts.metrics.auditDropped.inc(queue.length)
        log.error({ dropped: queue.length }, 'audit records dropped at shutdown: the audit service did not take them')
        queue.length = 0
      }
    },
  }
}
