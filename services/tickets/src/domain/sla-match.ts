/**
 * The monitor's match table, pure: for every scope, priority and customer tier, the config that applies (its
 * own tier's, else the scope's catch-all '') and its cutoffs at `now`. Configs are a handful per scope, so this
 * is where per-config work happens; the tickets are matched against the table in one SQL statement.
 */
import type { Calendar } from './business-hours.ts'
import { cutoffOf, type DeadlineConfig, type MatchableConfig, pickConfig, SLA_TIERS } from './sla-rules.ts'

export interface MatchRow {
  tenant_id: string
  workspace_id: string
  priority: string
  tier: string
  config_id: string
  fr_cutoff: string
  res_cutoff: string
  fr_minutes: number
  res_minutes: number
}

type Config = MatchableConfig & DeadlineConfig & { tenant_id: string; workspace_id: string }
type Scope = { tenant_id: string; workspace_id: string }

export function matchTable(configs: readonly Config[], calendarOf: (s: Scope) => Calendar, now: Date): MatchRow[] {
  const groups = new Map<string, Config[]>()
  for (const c of configs) {
    if (!c.active) continue
    const key = JSON.stringify([c.tenant_id, c.workspace_id, c.priority])
    groups.set(key, [...(groups.get(key) ?? []), c])
  }
  const cutoffs = new Map<string, { fr: string; res: string }>()
  const cutoffsOf = (c: Config) => {
    let found = cutoffs.get(c.id)
    if (!found) {
      const cal = calendarOf(c)
      found = {
        fr: cutoffOf(now, c, 'first_response', cal).toISOString(),
        res: cutoffOf(now, c, 'resolution', cal).toISOString(),
      }
      cutoffs.set(c.id, found)
    }
    return found
  }
  const rows: MatchRow[] = []
  for (const group of groups.values()) {
    const { tenant_id, workspace_id, priority } = group[0]!
    for (const tier of SLA_TIERS) {
      const c = pickConfig(group, priority, tier)
      if (!c) continue
      const { fr, res } = cutoffsOf(c)
      rows.push({
        tenant_id,
        workspace_id,
        priority,
        tier,
        config_id: c.id,
        fr_cutoff: fr,
        res_cutoff: res,
        fr_minutes: c.first_response_time,
        res_minutes: c.resolution_time,
      })
    }
  }
  return rows
}
