import type { ServiceContext } from '@switchboard/platform'
import type { TicketsConfig } from './config.ts'
import type { TicketsDatabase } from './db/database.ts'

/** What the tickets routes, commands and workers are handed (built by the descriptor in build.ts). */
export type TicketsService = ServiceContext<TicketsConfig, TicketsDatabase>
