import { type Static, Type } from '@sinclair/typebox'

/**
 * The right to erasure (docs/architecture.md §2, "Erasure"): identity records an administrator's request, removes
 * the person and emits `requested`; every service that holds something of the person carries it out from its own
 * consumer and reports what it did with its own `reported` event, which identity aggregates into the erasure's report.
 */
export const ErasureRequested = Type.Object({
  erasure_id: Type.String(),
  /** identity's customer record */
  customer_id: Type.String(),
  /** the customer's user id: conversations and tickets name the customer by it */
  user_id: Type.String(),
  /**
   * What the person was known by (name, e-mail, phone, login name): copies of them in free text and in audit
   * payloads are masked. The event itself stays in the IDENTITY stream until its retention drops it.
   */
  identifiers: Type.Array(Type.String()),
})
export type ErasureRequested = Static<typeof ErasureRequested>

/** One service's account of an erasure: how many of each thing it erased, masked or deleted. */
export const ErasureReported = Type.Object({
  erasure_id: Type.String(),
  customer_id: Type.String(),
  /** the reporting unit's name (`conversations`, `tickets`, …) */
  service: Type.String(),
  /** e.g. `{ messages_tombstoned: 12, uploads_deleted: 1 }` */
  counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  /** tickets only: the erased tickets, so that copies of their titles elsewhere (ai-orchestrator) follow */
  ticket_ids: Type.Optional(Type.Array(Type.String())),
  completed_at: Type.String(),
})
export type ErasureReported = Static<typeof ErasureReported>

/** What replaces erased free text (message bodies, titles, comments): the record, its counts and times remain. */
export const ERASED_TEXT = '[erased]'

export const IdentityErasureEvents = {
  requested: { type: 'identity.customer.erasure_requested', data: ErasureRequested },
} as const

/** Each service's report, on its own stream (the subject's first token names the owner). */
export const ErasureReportEvents = {
  conversations: { type: 'conversations.erasure.reported', data: ErasureReported },
  tickets: { type: 'tickets.erasure.reported', data: ErasureReported },
  audit: { type: 'audit.erasure.reported', data: ErasureReported },
  ai: { type: 'ai.erasure.reported', data: ErasureReported },
  realtime: { type: 'realtime.erasure.reported', data: ErasureReported },
} as const

/**
 * The units whose report an erasure waits for, with the stream each reports on. Statistics is not among them: its
 * read models hold ids, sources and counts, nothing personal (services/statistics/src/db/database.ts).
 */
export const ERASURE_REPORTERS = [
  { service: 'conversations', stream: 'CONVERSATIONS', event: ErasureReportEvents.conversations },
  { service: 'tickets', stream: 'TICKETS', event: ErasureReportEvents.tickets },
  { service: 'audit', stream: 'AUDIT', event: ErasureReportEvents.audit },
  { service: 'ai-orchestrator', stream: 'AI', event: ErasureReportEvents.ai },
  { service: 'realtime-voice', stream: 'REALTIME', event: ErasureReportEvents.realtime },
] as const

/** Replaces every occurrence of the identifiers (case-insensitive) in `text`; identifiers shorter than 3 are left. */
export function maskIdentifiers(text: string, identifiers: readonly string[]): string {
  let out = text
  for (const id of identifiers) {
    if (id.length < 3) continue
    out = out.replace(new RegExp(id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ERASED_TEXT)
  }
  return out
}

/**
 * One unit's share of a person's export (`GET /internal/customers/:id/export?user_id=` on each unit, assembled by
 * the gateway's `GET /api/customers/:id/export`): collections by name, each a list of records as stored.
 */
export const CustomerExportPart = Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Type.Unknown())))
export type CustomerExportPart = Static<typeof CustomerExportPart>

/** The query of the units' export routes: the customer's account id (conversations and tickets name them by it). */
export const CustomerExportQuery = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 128 }) })

/** The path of every unit's export route. */
export const CUSTOMER_EXPORT_PATH = '/internal/customers/:id/export'

/** Erasing and exporting a person: administrators (`*`) only, or a service granted exactly this. */
export const ERASURE_PERMISSION = 'customers.erase'

export function holdsErasurePermission(permissions: readonly string[]): boolean {
  return permissions.includes('*') || permissions.includes(ERASURE_PERMISSION)
}

/**
 * A tenant erasing itself (identity's `POST /api/security/tenants/:id/erasure`): besides each customer's own erasure,
 * every unit removes everything personal it holds of the tenant — staff, anonymous visitors, free text, documents,
 * uploads, cached keys — and reports with its own `tenant_erasure.reported`.
 */
export const TenantErasureRequested = Type.Object({
  tenant_erasure_id: Type.String(),
  tenant_id: Type.String(),
  /** the tenant's staff and customers' user ids (audit empties the records done by them of their address) */
  user_ids: Type.Array(Type.String()),
  /** what the tenant's staff, tenant and workspaces were called (names, e-mails, login names): masked in free text */
  identifiers: Type.Array(Type.String()),
})
export type TenantErasureRequested = Static<typeof TenantErasureRequested>

/** One unit's account of a tenant's erasure. */
export const TenantErasureReported = Type.Object({
  tenant_erasure_id: Type.String(),
  tenant_id: Type.String(),
  service: Type.String(),
  counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  completed_at: Type.String(),
})
export type TenantErasureReported = Static<typeof TenantErasureReported>

/** One unit's report of its part of a tenant's erasure (`e`), done `at` (now unless given). */
export function tenantErasureReport(
  e: Pick<TenantErasureRequested, 'tenant_erasure_id' | 'tenant_id'>,
  service: string,
  counts: Record<string, number>,
  at: string = new Date().toISOString(),
): TenantErasureReported {
  return { tenant_erasure_id: e.tenant_erasure_id, tenant_id: e.tenant_id, service, counts, completed_at: at }
}

export const IdentityTenantErasureEvents = {
  requested: { type: 'identity.tenant.erasure_requested', data: TenantErasureRequested },
} as const

export const TenantErasureReportEvents = {
  conversations: { type: 'conversations.tenant_erasure.reported', data: TenantErasureReported },
  tickets: { type: 'tickets.tenant_erasure.reported', data: TenantErasureReported },
  audit: { type: 'audit.tenant_erasure.reported', data: TenantErasureReported },
  ai: { type: 'ai.tenant_erasure.reported', data: TenantErasureReported },
  realtime: { type: 'realtime.tenant_erasure.reported', data: TenantErasureReported },
  config: { type: 'config.tenant_erasure.reported', data: TenantErasureReported },
} as const

/**
 * The units a tenant's erasure waits for besides identity's own two parts (its records, and the tenant's keys in the
 * shared Redis, `cache`), with the stream each reports on.
 */
export const TENANT_ERASURE_REPORTERS = [
  { service: 'conversations', stream: 'CONVERSATIONS', event: TenantErasureReportEvents.conversations },
  { service: 'tickets', stream: 'TICKETS', event: TenantErasureReportEvents.tickets },
  { service: 'audit', stream: 'AUDIT', event: TenantErasureReportEvents.audit },
  { service: 'ai-orchestrator', stream: 'AI', event: TenantErasureReportEvents.ai },
  { service: 'realtime-voice', stream: 'REALTIME', event: TenantErasureReportEvents.realtime },
  // governed configuration and app integrations: held per tenant only, so it takes part in no customer's erasure
  { service: 'config-governance', stream: 'CONFIG', event: TenantErasureReportEvents.config },
] as const

/**
 * identity's part of an erasure that removes the dead letters about the person (a customer's erasure: the tenant's
 * dead letters whose event names the customer's ids or identifiers) or the tenant (a tenant's erasure: every dead
 * letter of the tenant), counted as `dead_letters_removed`: replaying one would write the data back into a unit
 * that already erased it. Services/identity/README.md, "Erasure and export".
 */
export const ERASURE_DLQ_PART = 'dlq'

/**
 * Consumers whose dead letters about an erased customer the `dlq` part keeps (counted as
 * `dead_letters_kept_for_audit`): audit's recorder masks a record about an erased customer on arrival, so a replay
 * stores the action without the person. A tenant's erasure removes these too.
 */
export const ERASURE_MASKING_CONSUMERS: readonly string[] = ['audit-recorder']

/**
 * The erasures' own events, whose dead letters no erasure removes: replaying one is how a unit's part of an erasure
 * that failed is carried out after all (each part is idempotent).
 */
export const ERASURE_EVENT_TYPES: ReadonlySet<string> = new Set([
  IdentityErasureEvents.requested.type,
  IdentityTenantErasureEvents.requested.type,
  ...Object.values(ErasureReportEvents).map((e) => e.type),
  ...Object.values(TenantErasureReportEvents).map((e) => e.type),
])
