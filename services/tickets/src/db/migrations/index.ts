import type { Migration } from 'kysely'
import * as tickets0001 from './20261122_0001_tickets.ts'

/** Forward-only, in name order (STYLE point 7). */
export const migrations: Record<string, Migration> = {
  '20261122_0001_tickets': tickets0001,
}
