import type { ServiceContext } from '@switchboard/platform'
import type { StatisticsConfig } from './config.ts'
import type { StatisticsDatabase } from './db/database.ts'

/** What the statistics routes, commands and consumers are handed. */
export type StatisticsService = ServiceContext<StatisticsConfig, StatisticsDatabase>
