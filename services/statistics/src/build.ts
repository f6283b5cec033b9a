import { UNITS } from '@switchboard/contracts'
import { defineService } from '@switchboard/platform'
import { loadConfig, type StatisticsConfig } from './config.ts'
import { conversationsProjection } from './consumers/conversations.consumer.ts'
import { identityProjection } from './consumers/identity.consumer.ts'
import { ticketsProjection } from './consumers/tickets.consumer.ts'
import type { StatisticsDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { dailyStatsRoutes } from './routes/daily-stats.routes.ts'
import { reportRoutes } from './routes/reports.routes.ts'

/**
 * The statistics service (docs/architecture.md §1): it owns no source data. Durable consumers of identity, tickets
 * and conversations keep read models (README "Read models"); the routes compute the spec's metric definitions over
 * them, scoped by the request; DailyStats is the system-level day summary the events move.
 */
export const statistics = defineService<StatisticsConfig, StatisticsDatabase>({
  unit: UNITS.statistics,
  loadConfig,
  migrations,
  // it emits no domain events of its own (its audit records are the platform's)
  events: [],
  routes: { protected: [reportRoutes, dailyStatsRoutes] },
  consumers: [identityProjection, ticketsProjection, conversationsProjection],
})

/** An un-listened statistics app: runners listen, tests `inject()`. */
export const build = statistics.build
