import type { Scope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConversationsDatabase } from './database.ts'
import { agentsOnShift } from './shifts.repository.ts'

type Db = Kysely<ConversationsDatabase>

/**
 * Routing's shift rule, read-only (the shifts routes write the table): the user ids of the scope's agents on a
 * scheduled or active shift covering `at`, or null when the scope schedules no shifts around `at` (none that is
 * not cancelled within 12 hours either side), in which case every online agent may be routed to. A scope that
 * uses shifts is held to them: between shifts nobody is picked and sessions wait. The window is the shifts
 * module's (`agentsOnShift`, `scheduleWindow`), so "has shifts" is defined once.
 */
export async function onShiftNow(db: Db, scope: Scope, at: string): Promise<ReadonlySet<string> | null> {
  const { hasShifts, userIds } = await agentsOnShift(db, scope, at)
  return hasShifts ? userIds : null
}
