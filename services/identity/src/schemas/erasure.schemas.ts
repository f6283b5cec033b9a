import { type Static, Type } from '@sinclair/typebox'

export const ErasureServiceReport = Type.Object({
  /** the unit that reported (identity, conversations, tickets, audit, ai-orchestrator, realtime-voice) */
  service: Type.String(),
  /** what it erased, masked or deleted, by name */
  counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  reported_at: Type.String(),
})

/** A customer's erasure: `in_progress` until every unit reported, then `completed`; ids and counts only. */
export const ErasureSchema = Type.Object({
  erasure_id: Type.String(),
  customer_id: Type.String(),
  status: Type.Union([Type.Literal('in_progress'), Type.Literal('completed')]),
  requested_by: Type.String(),
  requested_at: Type.String(),
  completed_at: Type.Union([Type.String(), Type.Null()]),
  services: Type.Array(ErasureServiceReport),
  /** the units still to report */
  pending: Type.Array(Type.String()),
})
export type ErasureSchema = Static<typeof ErasureSchema>
