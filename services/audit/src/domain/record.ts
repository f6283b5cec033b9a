import { Value } from '@sinclair/typebox/value'
import { AuditRecordData, type Envelope } from '@switchboard/contracts'
import { auditSnapshot, storableAuditRecord, storableText } from '@switchboard/platform'
import type { AuditLog } from '../schemas/audit.schemas.ts'

export type RecordResult = { ok: true; record: AuditLog } | { ok: false; error: string }

/** What both engines can hold in `created_at` (PostgreSQL's timestamptz ends in 294276, SQLite sorts 4-digit years). */
const LATEST = Date.UTC(10_000, 0, 1)

/**
 * The stored record of one audit event. Scope comes from the envelope (the publisher's request scope), the
 * time is when the write happened (not when it was consumed), and secrets are masked again here: the
 * publishers mask, but a record is kept for months and one missed key would be kept with it. Text is made
 * storable here too (`storableAuditRecord`): an event from a publisher that did not, or a dead letter replayed
 * from before it did, is stored with its markers rather than refused by PostgreSQL again.
 *
 * `ok: false` is a record no retry can store (it breaks its contract): the caller dead-letters it at once.
 */
export function recordFromEnvelope(envelope: Envelope<unknown>, id: string): RecordResult {
  if (!Value.Check(AuditRecordData, envelope.data)) {
    const first = Value.Errors(AuditRecordData, envelope.data).First()
    return { ok: false, error: `invalid audit record: ${first ? `${first.path} ${first.message}` : 'not an object'}` }
  }
  const occurred = Date.parse(envelope.occurred_at)
  if (Number.isNaN(occurred) || occurred < 0 || occurred >= LATEST) {
    return { ok: false, error: 'invalid audit record: occurred_at is not a time between 1970 and 9999' }
  }
  const d = envelope.data
  // an integer column: a status past 2^31 would fail the insert on PostgreSQL on every delivery
  if (d.status_code < 100 || d.status_code > 599) {
    return { ok: false, error: `invalid audit record: status_code ${d.status_code} is not an HTTP status` }
  }
  const data = storableAuditRecord({
    ...d,
    request_json: auditSnapshot(d.request_json),
    before_json: auditSnapshot(d.before_json),
    after_json: auditSnapshot(d.after_json),
  })
  const tenant = storableText(envelope.tenant_id)
  const workspace = storableText(envelope.workspace_id)
  const eventId = storableText(envelope.id)
  const scopeChanged = tenant !== envelope.tenant_id || workspace !== envelope.workspace_id || eventId !== envelope.id
  return {
    ok: true,
    record: {
      id,
      created_at: new Date(occurred).toISOString(),
      actor_user_id: data.actor_user_id,
      principal_kind: data.principal_kind,
      action: data.action,
      resource_type: data.resource_type,
      resource_id: data.resource_id,
      route: data.route,
      method: data.method,
      status_code: data.status_code,
      success: data.success,
      request_id: data.request_id,
      client_ip: data.client_ip,
      user_agent: data.user_agent,
      tenant_id: tenant,
      workspace_id: workspace,
      request_json: data.request_json,
      before_json: data.before_json,
      after_json: data.after_json,
      sanitised: data.sanitised === true || scopeChanged,
      event_id: eventId,
    },
  }
}
