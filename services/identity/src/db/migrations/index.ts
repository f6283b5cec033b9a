import type { Migration } from 'kysely'
import * as m0001 from './20261122_0001_identity.ts'
import * as m0002 from './20261124_0002_registry_operators.ts'
import * as m0003 from './20261124_0003_agent_ratings.ts'
import * as m0004 from './20261124_0004_scoped_session_risk.ts'
import * as m0005 from './20261127_0005_agent_sessions.ts'
import * as m0006 from './20261127_0006_customer_erasures.ts'
import * as m0007 from './20261127_0007_tenant_erasures.ts'

/** Forward-only, in name order; a new migration is a new file added here. */
export const migrations: Record<string, Migration> = {
  '20261122_0001_identity': m0001,
  '20261124_0002_registry_operators': m0002,
  '20261124_0003_agent_ratings': m0003,
  '20261124_0004_scoped_session_risk': m0004,
  '20261127_0005_agent_sessions': m0005,
  '20261127_0006_customer_erasures': m0006,
  '20261127_0007_tenant_erasures': m0007,
}
