import type { ServiceContext } from '@switchboard/platform'
import type { LagProbe } from './commands/lag.commands.ts'
import type { StatisticsConfig } from './config.ts'
import type { StatisticsDatabase } from './db/database.ts'
import type { StatisticsMetrics } from './metrics/statistics.metrics.ts'

/** statistics' own parts of the context, made once per app (`context` of the descriptor). */
export interface StatisticsParts {
  statisticsMetrics: StatisticsMetrics
  /** the projections' lag, measured at most once a second */
  lag: LagProbe
}

/** What the statistics routes, commands and consumers are handed. */
export type StatisticsService = ServiceContext<StatisticsConfig, StatisticsDatabase> & StatisticsParts
