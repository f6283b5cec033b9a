// The gateway's queue of audit records for the audit service: bounded, and what it cannot keep is counted and logged,
// never dropped silently (alert GatewayAuditRecordsDropped).
import { AUDIT_RECORDED_TYPE, type AuditRecordData } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import t from 'tap'
import { Agent } from 'undici'
import { AUDIT_QUEUE_MAX, createAuditSink } from '../src/audit/audit-sink.ts'
import { createGatewayMetrics } from '../src/metrics.ts'
import { logger } from './fixtures/gateway.ts'

const record = (i: number) =>
  newEnvelope<AuditRecordData>({
    type: AUDIT_RECORDED_TYPE,
    tenant_id: 'acme',
    workspace_id: 'support',
    actor: { user_id: 'u1', kind: 'agent' },
    request_id: `r${i}`,
    data: {
      actor_user_id: 'u1',
      principal_kind: 'agent',
      action: 'tickets.delete',
      resource_type: 'tickets',
      resource_id: 't1',
      route: '/api/tickets/:id',
      method: 'DELETE',
      status_code: 403,
      success: false,
      request_id: `r${i}`,
      client_ip: '127.0.0.1',
      user_agent: 'test',
      request_json: null,
      before_json: null,
      after_json: null,
    },
  })

t.test('past AUDIT_QUEUE_MAX the newest records are dropped and counted; at shutdown the rest', async (t) => {
  const metrics = createGatewayMetrics()
  const dispatcher = new Agent()
  t.teardown(() => dispatcher.close())
  // no audit service to hand them to: everything stays queued
  const sink = createAuditSink({
    pick: () => undefined,
    internalSecret: 'internal-secret-for-tests-0123456789',
    dispatcher,
    timeoutMs: 100,
    metrics,
    logger,
    retryMs: [60_000],
  })
  for (let i = 0; i < AUDIT_QUEUE_MAX + 3; i++) sink.record(record(i))
  t.equal(sink.pending(), AUDIT_QUEUE_MAX)
  const dropped = async () => (await metrics.auditDropped.get()).values[0]?.value ?? 0
  t.equal(await dropped(), 3)
  t.equal((await metrics.auditPending.get()).values[0]?.value, AUDIT_QUEUE_MAX)
  await sink.close(100)
  t.equal(await dropped(), AUDIT_QUEUE_MAX + 3, 'what was left at shutdown is counted too')
  t.equal(sink.pending(), 0)
  sink.record(record(-1))
  t.equal(await dropped(), AUDIT_QUEUE_MAX + 4, 'after close nothing is taken')
})
