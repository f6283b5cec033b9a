import { randomBytes } from 'node:crypto'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { UNITS } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import { loadUnit, type UnitApp } from './units.ts'

/** What statistics' rebuild answers per projection (services/statistics, commands/rebuild.commands.ts). */
export interface StatsRebuildReport {
  projection: string
  stream: string
  events: number
  applied: number
  failed: Array<{ seq: number; id: string; type: string; error: string }>
}

export interface StatsRebuildOptions {
  /** short (`tickets`) or consumer names; none: every projection */
  projections?: string[]
  /** statistics' settings: DATABASE_URL, DB_SCHEMA, NATS_URL, NATS_PREFIX (flags already applied) */
  env: NodeJS.ProcessEnv
  logger: Logger
  /** a projection starts: its stream's size (messages now; events arriving meanwhile add to it) */
  onStart?(projection: string, total: number): void
  onProgress?(projection: string, done: number): void
}

type Rebuild = (
  app: UnitApp,
  names: readonly string[],
  opts: {
    onStart?(projection: string, stream: string): Promise<void>
    onProgress?(projection: string, done: number): void
  },
) => Promise<StatsRebuildReport[]>

/**
 * `switchboard stats rebuild`: statistics' projections emptied and replayed from their JetStream streams, through
 * the service's own projection code in an app built here and never started (no consumers, no listener), while the
 * running replicas keep consuming. PostgreSQL and NATS only: the embedded mode's bus keeps no history.
 */
export async function rebuildStats(o: StatsRebuildOptions): Promise<StatsRebuildReport[]> {
  if (o.env.DB_DRIVER === 'sqlite' || o.env.BUS_DRIVER === 'memory') {
    throw new Error(
      'stats rebuild replays JetStream into PostgreSQL: the embedded mode (SQLite, in-process bus) keeps no stream history',
    )
  }
  const env: NodeJS.ProcessEnv = {
    ...o.env,
    DB_DRIVER: 'postgres',
    BUS_DRIVER: 'nats',
    CACHE_DRIVER: 'memory', // nothing is cached by a rebuild
    PORT: '0',
  }
  // the app is never started, so no request is ever verified with it
  if (!env.INTERNAL_SECRET && !env.INTERNAL_SECRET_FILE) env.INTERNAL_SECRET = randomBytes(32).toString('hex')
  const unit = await loadUnit(UNITS.statistics)
  const rebuild = unit.rebuild as Rebuild | undefined
  if (typeof rebuild !== 'function') throw new Error('services/statistics does not export rebuild(app, names, opts)')
  const config = unit.loadConfig(env)
  const nc = await connect({ servers: config.bus.url, name: 'switchboard-stats-rebuild' })
  try {
    const jsm = await jetstreamManager(nc)
    const app = await unit.build(config, { logger: o.logger })
    try {
      return await rebuild(app, o.projections ?? [], {
        onStart: async (projection, stream) => {
          const name = (config.bus.prefix ? `${config.bus.prefix}_${stream}` : stream).toUpperCase()
          const info = await jsm.streams.info(name)
          o.onStart?.(projection, info.state.messages)
        },
        onProgress: o.onProgress,
      })
    } finally {
      await app.close()
    }
  } finally {
    await nc.drain()
  }
}
