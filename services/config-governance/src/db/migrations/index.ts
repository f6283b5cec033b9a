import type { Migration } from 'kysely'
import * as governance0001 from './20261124_0001_config_governance.ts'
import * as integrations0002 from './20261124_0002_app_integrations.ts'
import * as pending0003 from './20261127_0003_pending_changes.ts'

/** Forward-only, in name order (docs/architecture.md §4). */
export const migrations: Record<string, Migration> = {
  '20261124_0001_config_governance': governance0001,
  '20261124_0002_app_integrations': integrations0002,
  '20261127_0003_pending_changes': pending0003,
}
