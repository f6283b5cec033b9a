import type { Migration } from 'kysely'
import * as statistics0001 from './20261124_0001_statistics.ts'
import * as statistics0002 from './20261124_0002_projection_positions.ts'
import * as statistics0003 from './20261124_0003_aggregates.ts'
import * as statistics0004 from './20261127_0004_ai_days.ts'

/** Forward-only, in name order (docs/architecture.md §4). */
export const migrations: Record<string, Migration> = {
  '20261124_0001_statistics': statistics0001,
  '20261124_0002_projection_positions': statistics0002,
  '20261124_0003_aggregates': statistics0003,
  '20261127_0004_ai_days': statistics0004,
}
