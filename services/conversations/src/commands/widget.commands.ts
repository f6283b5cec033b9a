import { nowIso, type Scope } from '@switchboard/platform'
import { onlineAgentsWithLoad } from '../db/agents.repository.ts'
import { onShiftNow } from '../db/shift-queries.repository.ts'

/**
 * `GET /public/widget/availability`: how many agents routing would consider for a conversation now — online in
 * conversations' agents projection (identity's presence as its events made it known here, the very rows routing
 * locks) and, where the workspace keeps shifts, on one. Load is not counted: a busy agent still takes a queue.
 */
export async function availability(svc: { db: Parameters<typeof onlineAgentsWithLoad>[0] }, scope: Scope) {
  const online = await onlineAgentsWithLoad(svc.db, scope)
  const onShift = online.length > 0 ? await onShiftNow(svc.db, scope, nowIso()) : null
  const agents_online = online.filter((a) => onShift === null || onShift.has(a.user_id)).length
  return { agents_online, open: agents_online > 0 }
}
