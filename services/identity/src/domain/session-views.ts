import type { SessionRow } from '../db/sessions.repository.ts'
import type { IpLabels } from '../ip-intel/index.ts'
import { computeSessionViews, type SessionView } from './session-risk.ts'
import type { SessionRiskPolicy } from './session-risk-policy.ts'

/** A listed auth session: the risk view plus when and from where it was used. */
export type AuthSessionView = SessionView & {
  user_agent: string
  client_ip: string
  created_at: string
  last_seen_at: string
  last_refresh_at: string | null
  revoked_at: string | null
}

/**
 * Views of one user's sessions, the same on both sides: the self-service side passes `currentSessionId`
 * (and so gets `is_current`), the management side does not. Pure: the policy and IP labels are resolved first.
 */
export function authSessionViews(
  sessions: readonly SessionRow[],
  labels: ReadonlyMap<string, IpLabels>,
  opts: { policy: SessionRiskPolicy; now: Date; currentSessionId?: string | undefined },
): AuthSessionView[] {
  const rows = sessions.map((s) => ({ ...s, token_version: Number(s.token_version) }))
  const views = computeSessionViews(rows, labels, opts)
  return views.map((v, i) => {
    const s = rows[i] as SessionRow
    return {
      ...v,
      user_agent: s.user_agent,
      client_ip: s.client_ip,
      created_at: s.created_at,
      last_seen_at: s.last_seen_at,
      last_refresh_at: s.last_refresh_at,
      revoked_at: s.revoked_at,
    }
  })
}
