import type { Actor, Envelope } from '@switchboard/contracts'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { EventsTables } from './migrations.ts'
import { withTraceHeaders } from './tracing.ts'

export { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.ts'

export interface NewEnvelopeInput<T> {
  type: string
  /** schema version of `data` (default 1) */
  version?: number
  tenant_id: string
  workspace_id: string
  actor: Actor
  request_id?: string
  data: T
}

/** Builds an envelope with a fresh UUIDv7 id (time-ordered) and the current time. */
export function newEnvelope<T>(input: NewEnvelopeInput<T>): Envelope<T> {
  const envelope: Envelope<T> = {
    id: uuidv7(),
    type: input.type,
    version: input.version ?? 1,
    occurred_at: new Date().toISOString(),
    tenant_id: input.tenant_id,
    workspace_id: input.workspace_id,
    actor: input.actor,
    data: input.data,
  }
  if (input.request_id !== undefined) envelope.request_id = input.request_id
  return envelope
}

/**
 * Writes an event to the outbox inside the caller's transaction, beside the state change it
 * describes; the relay publishes it once the transaction has committed. With tracing on, the row's headers keep
 * the caller's trace context (`traceparent`), which the relay's publish continues. Call the relay's kick()
 * after the commit to publish at once rather than at the next poll.
 */
export async function appendOutbox(
  trx: Kysely<any>,
  subject: string,
  envelope: Envelope,
  opts: { headers?: Record<string, string> } = {},
): Promise<void> {
  await (trx as Kysely<EventsTables>)
    .insertInto('outbox')
    .values(outboxValues(subject, envelope, opts))
    .execute()
}

/** The outbox row of an event, as `appendOutbox` writes it. */
export interface OutboxValues {
  id: string
  subject: string
  /** the envelope as JSON text */
  envelope: string
  /** the message headers (the caller's trace context with tracing on) as JSON text */
  headers: string
  created_at: string
}

/**
 * The row `appendOutbox` inserts, for a statement that writes it itself (beside the state change, in one statement):
 * the trace context is the caller's at the time of this call.
 */
export function outboxValues(
  subject: string,
  envelope: Envelope,
  opts: { headers?: Record<string, string> } = {},
): OutboxValues {
  return {
    id: envelope.id,
    subject,
    envelope: JSON.stringify(envelope),
    headers: JSON.stringify(withTraceHeaders(opts.headers) ?? {}),
    created_at: new Date().toISOString(),
  }
}

/** Several events in one statement (the same rows `appendOutbox` writes one by one). */
export async function appendOutboxMany(
  trx: Kysely<any>,
  items: ReadonlyArray<{ subject: string; envelope: Envelope; headers?: Record<string, string> }>,
): Promise<void> {
  if (items.length === 0) return
  const now = new Date().toISOString()
  await (trx as Kysely<EventsTables>)
    .insertInto('outbox')
    .values(
      items.map((i) => ({
        id: i.envelope.id,
        subject: i.subject,
        envelope: JSON.stringify(i.envelope),
        headers: JSON.stringify(withTraceHeaders(i.headers) ?? {}),
        created_at: now,
      })),
    )
    .execute()
}
