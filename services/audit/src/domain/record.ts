import { Value } from '@sinclair/typebox/value'
import { AuditRecordData, type Envelope } from '@switchboard/contracts'
import { auditSnapshot } from '@switchboard/platform'
import type { AuditLog } from '../schemas/audit.schemas.ts'

export type RecordResult = { ok: true; record: AuditLog } | { ok: false; error: string }

/**
 * The stored record of one audit event. Scope comes from the envelope (the publisher's request scope), the
 * time is when the write happened (not when it was consumed), and secrets are masked again here: the
 * publishers mask, but a record is kept for months and one missed key would be kept with it.
 */
export function recordFromEnvelope(envelope: Envelope<unknown>, id: string): RecordResult {
  if (!Value.Check(AuditRecordData, envelope.data)) {
    const first = Value.Errors(AuditRecordData, envelope.data).First()
    return { ok: false, error: `invalid audit record: ${first ? `${first.path} ${first.message}` : 'not an object'}` }
  }
  const occurred = Date.parse(envelope.occurred_at)
  if (Number.isNaN(occurred)) return { ok: false, error: 'invalid audit record: occurred_at is not a time' }
  const d = envelope.data
  return {
    ok: true,
    record: {
      id,
      created_at: new Date(occurred).toISOString(),
      actor_user_id: d.actor_user_id,
      principal_kind: d.principal_kind,
      action: d.action,
      resource_type: d.resource_type,
      resource_id: d.resource_id,
      route: d.route,
      method: d.method,
      status_code: d.status_code,
      success: d.success,
      request_id: d.request_id,
      client_ip: d.client_ip,
      user_agent: d.user_agent,
      tenant_id: envelope.tenant_id,
      workspace_id: envelope.workspace_id,
      request_json: auditSnapshot(d.request_json),
      before_json: auditSnapshot(d.before_json),
      after_json: auditSnapshot(d.after_json),
      event_id: envelope.id,
    },
  }
}
