import type { Migration } from 'kysely'
import * as audit0001 from './20261122_0001_audit.ts'
import * as audit0002 from './20261127_0002_sanitised.ts'
import * as audit0003 from './20261127_0003_erased_subjects.ts'

/** Forward-only, in name order (docs/architecture.md §4). */
export const migrations: Record<string, Migration> = {
  '20261122_0001_audit': audit0001,
  '20261127_0002_sanitised': audit0002,
  '20261127_0003_erased_subjects': audit0003,
}
