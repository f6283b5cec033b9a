import type { Envelope } from '@switchboard/contracts'
import { appliedOf, type Delivery, subjectMatches } from '@switchboard/events'
import { PROJECTIONS, type Projection } from '../consumers/projections.ts'
import type { StatisticsService } from '../context.ts'
import { advancePosition, positionsOf } from '../db/positions.repository.ts'

export interface ProjectionLag {
  projection: string
  stream: string
  /** now − occurred_at of the oldest event of the stream past the newest one applied; 0 when there is none */
  lag_seconds: number
  /** does the stream hold events past the newest applied one */
  pending: boolean
  /** `switchboard stats rebuild` is replaying it (applied_seq is then its progress) */
  rebuilding: boolean
  applied_seq: number | null
  applied_occurred_at: string | null
}

const FULL = Symbol('full')
/** Events read from the stream at a time, and reads per measurement at most. */
const PEEK = 100
const ROUNDS = 10

/**
 * The first event of the projection's subjects after `afterSeq` that it has not applied. An event it applied under
 * another sequence (a redelivered or republished copy: its inbox row) is not pending, and the position moves past it.
 */
async function firstPending(svc: StatisticsService, def: Projection, afterSeq: number): Promise<Envelope | undefined> {
  let from = afterSeq + 1
  let batch: Delivery[] = []
  for (let round = 0; round < ROUNDS; round++) {
    batch = []
    try {
      await svc.bus.replay(def.stream, { fromSeq: from }, async (d) => {
        if (!def.subjects.some((f) => subjectMatches(f, d.subject))) return
        batch.push(d)
        if (batch.length >= PEEK) throw FULL
      })
    } catch (err) {
      if (err !== FULL) throw err
    }
    if (batch.length === 0) return undefined
    const applied = await appliedIds(svc, def.durable, batch)
    const first = batch.findIndex((d) => !applied.has(d.envelope.id))
    const done = first === -1 ? batch.at(-1) : batch[first - 1]
    if (done) {
      const occurredAt = new Date(done.envelope.occurred_at).toISOString()
      await advancePosition(svc.db, def.durable, done.seq, occurredAt, new Date().toISOString())
    }
    if (first !== -1) return batch[first]?.envelope
    from = (batch.at(-1)?.seq ?? from) + 1
  }
  return batch.at(-1)?.envelope // more applied copies than one measurement reads: the next one goes on from there
}

function appliedIds(svc: StatisticsService, consumer: string, batch: Delivery[]): Promise<Set<string>> {
  return appliedOf(
    svc.db,
    consumer,
    batch.map((d) => d.envelope.id),
  )
}

/**
 * Each projection's lag (README "Projection lag"): the age of the oldest event of its stream past the newest one it
 * applied, 0 once it applied the stream's last event. Shared by every replica (the positions are in the database).
 */
export async function projectionLags(svc: StatisticsService, now = new Date()): Promise<ProjectionLag[]> {
  const positions = await positionsOf(svc.db)
  return Promise.all(
    PROJECTIONS.map(async (def) => {
      const at = positions.get(def.durable)
      const oldest = await firstPending(svc, def, at?.stream_seq ?? 0)
      const lag = oldest ? Math.max(0, now.getTime() - Date.parse(oldest.occurred_at)) / 1000 : 0
      return {
        projection: def.durable,
        stream: def.stream,
        lag_seconds: Math.round(lag * 1000) / 1000,
        pending: oldest !== undefined,
        rebuilding: at?.rebuilding ?? false,
        applied_seq: at?.stream_seq ?? null,
        applied_occurred_at: at?.occurred_at ?? null,
      }
    }),
  )
}

/** Reads of the lag within `ttlMs` of each other share one measurement (each is a stream read per projection). */
export function createLagProbe(svc: StatisticsService, ttlMs = 1000) {
  let last: { at: number; result: Promise<ProjectionLag[]> } | undefined
  return {
    read(): Promise<ProjectionLag[]> {
      const now = Date.now()
      if (!last || now - last.at >= ttlMs) {
        const result = projectionLags(svc, new Date(now))
        last = { at: now, result }
        result.catch(() => {
          if (last?.result === result) last = undefined
        })
      }
      return last.result
    },
  }
}
export type LagProbe = ReturnType<typeof createLagProbe>
