import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

/** One management write, as the service (or the gateway, for refusals) saw it. Secrets already masked. */
export const AuditRecordData = Type.Object({
  actor_user_id: Type.String(),
  principal_kind: Type.String(),
  action: Type.String({ description: '<resource>.<verb>, e.g. tickets.assign' }),
  resource_type: Type.String(),
  resource_id: Type.String(),
  route: Type.String({ description: 'route template, e.g. /api/tickets/:id/assign' }),
  method: Type.String(),
  status_code: Type.Integer(),
  success: Type.Boolean(),
  request_id: Type.String(),
  client_ip: Type.String(),
  user_agent: Type.String(),
  request_json: Nullable(Type.Unknown()),
  before_json: Nullable(Type.Unknown()),
  after_json: Nullable(Type.Unknown()),
  sanitised: Type.Optional(
    Type.Boolean({
      description:
        'true when text of the request could not be stored as sent: NUL characters became ␀ (U+2400) and unpaired surrogates � (U+FFFD)',
    }),
  ),
})
export type AuditRecordData = Static<typeof AuditRecordData>

/** Audit events go on the AUDIT stream as `audit.<service>.recorded`. */
export const auditSubject = (service: string) => `audit.${service}.recorded`
export const AUDIT_RECORDED_TYPE = 'audit.record.recorded'
