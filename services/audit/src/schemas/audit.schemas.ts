import { type Static, Type } from '@sinclair/typebox'
import { AuditRecordData, MAX_PAGE, Nullable, Paginated, Timestamp } from '@switchboard/contracts'

/** A stored record: what the writing service reported (`AuditRecordData`), plus where and when it was stored. */
export const AuditLog = Type.Composite([
  Type.Object({ id: Type.String(), created_at: Timestamp }),
  AuditRecordData,
  Type.Object({
    tenant_id: Type.String(),
    workspace_id: Type.String(),
    event_id: Type.String({ description: 'id of the event that carried the record' }),
  }),
])
export type AuditLog = Static<typeof AuditLog>

const Filter = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }))

export const AuditFilterQuery = Type.Object({
  action: Filter('exact action, e.g. tickets.close'),
  resource: Filter('resource type, e.g. tickets'),
  principal: Filter('principal kind: agent, admin, service, end_user, anonymous'),
  actor: Filter('actor user id'),
  success: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  start_date: Type.Optional(Type.String({ maxLength: 40, description: 'YYYY-MM-DD (UTC) or RFC 3339, inclusive' })),
  end_date: Type.Optional(
    Type.String({ maxLength: 40, description: 'YYYY-MM-DD (UTC, the whole day) or RFC 3339, inclusive' }),
  ),
})
export type AuditFilterQuery = Static<typeof AuditFilterQuery>

// PageQuery's page_size default would hide `limit`; here the default is applied in the handler.
export const ListAuditQuery = Type.Composite([
  AuditFilterQuery,
  Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'default 20' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'page size when page_size is absent; at most 200' })),
  }),
])
export type ListAuditQuery = Static<typeof ListAuditQuery>

export const ExportAuditQuery = Type.Composite([
  AuditFilterQuery,
  Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'rows, default 1000, at most 5000' })),
  }),
])
export type ExportAuditQuery = Static<typeof ExportAuditQuery>

export const AuditParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })

export const AuditPage = Paginated(AuditLog)

const Change = Type.Object({
  path: Type.String(),
  type: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('updated')]),
  before: Nullable(Type.Unknown()),
  after: Nullable(Type.Unknown()),
})

export const AuditDiff = Type.Object({
  audit: AuditLog,
  diff: Type.Object({
    has_before: Type.Boolean(),
    has_after: Type.Boolean(),
    changed: Type.Boolean(),
    change_count: Type.Integer(),
    changed_paths: Type.Array(Type.String()),
    changes: Type.Array(Change),
  }),
})
