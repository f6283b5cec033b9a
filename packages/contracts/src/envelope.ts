import { type Static, type TSchema, Type } from '@sinclair/typebox'

export const Actor = Type.Object({
  user_id: Type.String(),
  kind: Type.String(),
})
export type Actor = Static<typeof Actor>

/** Envelope of every domain event on the bus (docs/architecture.md §2). `id` is a UUIDv7. */
export const EventEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({
    id: Type.String(),
    type: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    occurred_at: Type.String(),
    tenant_id: Type.String(),
    workspace_id: Type.String(),
    actor: Actor,
    request_id: Type.Optional(Type.String()),
    data,
  })

export interface Envelope<T = unknown> {
  id: string
  type: string
  version: number
  occurred_at: string
  tenant_id: string
  workspace_id: string
  actor: Actor
  request_id?: string
  data: T
}

/**
 * An event's contract: its type (also its subject, `<service>.<aggregate>.<event>`) and the schema of its
 * `data`. Services emit only events of their descriptor's catalogs, and the platform checks every payload
 * against `data` before it reaches the outbox.
 */
export interface EventDef<T extends TSchema = TSchema> {
  readonly type: string
  readonly data: T
  /** schema version of `data` (default 1) */
  readonly version?: number
}
export type EventCatalog = Readonly<Record<string, EventDef>>

export const SYSTEM_ACTOR: Actor = { user_id: 'system', kind: 'service' }

/**
 * One stream per owning service; the subject's first token names it (`tickets.ticket.created` → TICKETS).
 * Audit records travel on their own stream so that the audit service consumes one place.
 */
export const STREAMS = {
  IDENTITY: { subjects: ['identity.>'] },
  TICKETS: { subjects: ['tickets.>'] },
  CONVERSATIONS: { subjects: ['conversations.>'] },
  AUDIT: { subjects: ['audit.>'] },
  REALTIME: { subjects: ['realtime.>'] },
  CONFIG: { subjects: ['config.>'] },
  AI: { subjects: ['ai.>'] },
} as const
export type StreamName = keyof typeof STREAMS
