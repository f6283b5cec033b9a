import type { ServiceClient, ServiceContext } from '@switchboard/platform'
import type { TicketsConfig } from './config.ts'
import type { TicketsDatabase } from './db/database.ts'

/** tickets' own parts of the context, made once per app by the descriptor's `context`. */
export interface TicketsParts {
  /** identity's internal API (a widget's customer and scope rule); absent when UPSTREAM_IDENTITY is not set */
  identity: ServiceClient | undefined
}

/** What the tickets routes, commands and workers are handed (built by the descriptor in build.ts). */
export type TicketsService = ServiceContext<TicketsConfig, TicketsDatabase> & TicketsParts
