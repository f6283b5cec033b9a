import { AUDIT_RECORDED_TYPE, type AuditRecordData, type Envelope, type Principal } from '@switchboard/contracts'
import { type EventBus, newEnvelope } from '@switchboard/events'
import { principalHeader, type StorageMode, serviceApp, TEST_INTERNAL_SECRET } from '@switchboard/testing'
import type { Test } from 'tap'
import { audit } from '../../src/build.ts'
import type { AuditConfig } from '../../src/config.ts'

export const INTERNAL_SECRET = TEST_INTERNAL_SECRET

/** The header the gateway would add for this principal. */
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/**
 * An audit app on isolated storage, closed and cleaned up when the test ends. The cleanup worker is off
 * unless a test turns it on: fixtures are dated in the past and would be deleted under it. `ready: false` leaves
 * it built but not started.
 */
export function auditApp(
  t: Test,
  mode: StorageMode,
  opts: { bus?: EventBus; config?: Partial<AuditConfig>; ready?: boolean } = {},
) {
  return serviceApp(t, audit, mode, {
    label: 'au',
    config: { retention_enabled: false, ...opts.config },
    ...(opts.bus ? { bus: opts.bus } : {}),
    until: opts.ready === false ? 'built' : 'started',
  })
}

export function auditData(overrides: Partial<AuditRecordData> = {}): AuditRecordData {
  return {
    actor_user_id: 'u1',
    principal_kind: 'agent',
    action: 'tickets.create',
    resource_type: 'tickets',
    resource_id: 't1',
    route: '/api/tickets',
    method: 'POST',
    status_code: 201,
    success: true,
    request_id: 'req-1',
    client_ip: '127.0.0.1',
    user_agent: 'test',
    request_json: null,
    before_json: null,
    after_json: null,
    ...overrides,
  }
}

/** An audit event as a service's audit hook would publish it, at a chosen time and scope. */
export function auditEvent(
  data: Partial<AuditRecordData>,
  at: { occurred_at?: string; tenant_id?: string; workspace_id?: string } = {},
): Envelope<AuditRecordData> {
  const envelope = newEnvelope({
    type: AUDIT_RECORDED_TYPE,
    tenant_id: at.tenant_id ?? 'acme',
    workspace_id: at.workspace_id ?? 'support',
    actor: { user_id: data.actor_user_id ?? 'u1', kind: data.principal_kind ?? 'agent' },
    data: auditData(data),
  })
  return at.occurred_at ? { ...envelope, occurred_at: at.occurred_at } : envelope
}
