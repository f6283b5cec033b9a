/**
 * A replica's `/metrics` as the gateway's `GET /api/system/health` reduces it (gateway README "System health"): the
 * route's response schema and the console's type of the same answer.
 */
import { type Static, Type } from '@sinclair/typebox'

const Nullable = Type.Union([Type.Number(), Type.Null()])
const BreakerState = Type.Union([Type.Literal('closed'), Type.Literal('half-open'), Type.Literal('open')])

export const ReplicaFiguresView = Type.Object({
  started_at: Type.Union([Type.String(), Type.Null()]),
  uptime_seconds: Nullable,
  resident_memory_bytes: Nullable,
  event_loop_lag_p99_seconds: Nullable,
  http_requests_total: Type.Number(),
  http_5xx_total: Type.Number(),
  http_requests_per_second: Nullable,
  http_5xx_per_second: Nullable,
  events_published_total: Type.Number(),
  events_failed_total: Type.Number(),
  events_dead_lettered_total: Type.Number(),
  /** statistics: each projection's lag (`stats_projection_lag_seconds`) */
  projection_lag_seconds: Type.Optional(Type.Record(Type.String(), Type.Number())),
  /** conversations: `conversations_waiting_sessions` */
  waiting_sessions: Type.Optional(Type.Number()),
  /** realtime-voice: `realtime_hub_sockets` by kind */
  hub_sockets: Type.Optional(Type.Record(Type.String(), Type.Number())),
  /** ai-orchestrator: `ai_circuit_breaker_state` by breaker */
  breakers: Type.Optional(Type.Record(Type.String(), BreakerState)),
})

export type ReplicaFigures = Static<typeof ReplicaFiguresView>
