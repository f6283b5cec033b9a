import { UNITS } from '@switchboard/contracts'
import { defineService, type ServiceApp } from '@switchboard/platform'
import { createLagProbe } from './commands/lag.commands.ts'
import { type RebuildOptions, rebuildProjections } from './commands/rebuild.commands.ts'
import { loadConfig, type StatisticsConfig } from './config.ts'
import { PROJECTIONS } from './consumers/projections.ts'
import type { StatisticsParts, StatisticsService } from './context.ts'
import { buildAggregates as buildFromRows } from './db/aggregates-build.ts'
import { aggregatesDrift } from './db/aggregates-check.ts'
import type { StatisticsDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { createStatisticsMetrics } from './metrics/statistics.metrics.ts'
import { dailyStatsRoutes } from './routes/daily-stats.routes.ts'
import { ingestRoutes } from './routes/ingest.routes.ts'
import { lagRoutes } from './routes/lag.routes.ts'
import { reportRoutes } from './routes/reports.routes.ts'

/**
 * The statistics service (docs/architecture.md §1): it owns no source data. Durable consumers of identity, tickets
 * and conversations keep read models (README "Read models"); the routes compute the spec's metric definitions over
 * them, scoped by the request; DailyStats is the system-level day summary the events move. Client metrics
 * (`/api/v1/metrics/ingest`) and the projections' lag are on its `/metrics`.
 */
export const statistics = defineService<StatisticsConfig, StatisticsDatabase, StatisticsParts>({
  unit: UNITS.statistics,
  loadConfig,
  migrations,
  // it emits no domain events of its own (its audit records are the platform's)
  events: [],
  context(base) {
    // `base` becomes the full context once these parts are added to it
    const svc = base as StatisticsService
    const lag = createLagProbe(svc)
    const statisticsMetrics = createStatisticsMetrics(base.metrics.registry, lag.read, (err) =>
      base.log.warn({ err }, 'projection lag not measured'),
    )
    return { lag, statisticsMetrics }
  },
  routes: { protected: [reportRoutes, dailyStatsRoutes, lagRoutes, ingestRoutes] },
  // each projection's deliveries applied in batches, one transaction each (group commit: consumers/projection.ts)
  consumers: [...PROJECTIONS],
  // the projections' lag in /ready's details: shown to operators, never a reason to leave the rotation
  async readyDetails(svc) {
    const projections = await svc.lag.read()
    return { caught_up: projections.every((p) => !p.pending && !p.rebuilding), projections }
  },
})

/** An un-listened statistics app: runners listen, tests `inject()`. */
export const build = statistics.build

/**
 * `switchboard stats rebuild`: empties the named projections (default all) and replays their streams, through an
 * app built but not started (its consumers stay off; the running replicas' keep going).
 */
export const rebuild = (app: ServiceApp, names?: readonly string[], opts?: RebuildOptions) =>
  rebuildProjections(statistics.contextOf(app), names, opts)

/**
 * The aggregates emptied and built again from the raw rows (set-based: db/aggregates-build.ts): for a world
 * bulk-loaded into the raw tables (the statistics benchmark). Not while the projections run.
 */
export async function buildAggregates(app: ServiceApp): Promise<void> {
  const svc = statistics.contextOf(app)
  await svc.db.transaction().execute((trx) => buildFromRows(trx, svc.dialect))
}

/** How the kept aggregates differ from the raw rows summed (none: equal); see db/aggregates-check.ts. */
export const checkAggregates = (app: ServiceApp) => {
  const svc = statistics.contextOf(app)
  return aggregatesDrift(svc.db, svc.dialect)
}
