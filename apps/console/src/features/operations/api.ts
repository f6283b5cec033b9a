/** The gateway's operations routes: dead letters (`/api/ops/dead-letters`) and each unit's health (`/api/system/health`). */
import type { ReplicaFigures } from '@switchboard/contracts/system-health.ts'
import { api } from '../../lib/http.ts'

export type { ReplicaFigures }

export interface DeadLetter {
  seq: number
  origin_subject: string
  origin_stream: string
  origin_seq: number
  consumer: string
  error: string
  failed_at: string
  deliveries: number
  envelope: Record<string, unknown>
  headers?: Record<string, string>
}

export interface ReplicaHealth {
  replica: number
  ready: boolean
  metrics: ReplicaFigures | null
  metrics_error: string | null
}

export interface UnitHealth {
  unit: string
  status: 'ready' | 'unready'
  replicas: number
  replicas_ready: number
  instances: ReplicaHealth[]
}

export interface SystemHealth {
  status: 'ready' | 'degraded'
  checked_at: string
  units: UnitHealth[]
}

/** the most the ops route lists at once */
export const LIST_LIMIT = 1000
/** sequences per replay request when replaying all: each answered batch moves the progress bar */
export const REPLAY_BATCH = 25

export const opsKeys = {
  deadLetters: ['ops', 'dead-letters'] as const,
  health: ['ops', 'health'] as const,
}

export function listDeadLetters(signal?: AbortSignal): Promise<{ count: number; items: DeadLetter[] }> {
  return api('/api/ops/dead-letters', { query: { limit: LIST_LIMIT }, signal })
}

export function replayDeadLetters(seqs: number[]): Promise<{ replayed: number }> {
  return api('/api/ops/dead-letters/replay', { method: 'POST', body: { seqs } })
}

export function systemHealth(signal?: AbortSignal): Promise<SystemHealth> {
  return api('/api/system/health', { signal })
}
