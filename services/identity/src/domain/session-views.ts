import type { IpLabels } from '../ip-intel/index.ts'
import { computeSessionViews, type RiskSessionInput, type SessionView } from './session-risk.ts'
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

/** What a listed session needs of its stored row (auth_sessions' row fits it). */
export interface ListedSession extends RiskSessionInput {
  user_agent: string
  revoked_at: string | null
}

/**
 * Views of one user's sessions, the same on both sides: the self-service side passes `currentSessionId`
 * (and so gets `is_current`), the management side does not. Pure: the policy and IP labels are resolved first.
 */
export function authSessionViews(
  sessions: readonly ListedSession[],
  labels: ReadonlyMap<string, IpLabels>,
  opts: { policy: SessionRiskPolicy; now: Date; currentSessionId?: string | undefined },
): AuthSessionView[] {
  // a driver may hand an integer column back as a string: the version compares as a number
  const rows = sessions.map((s) => ({ ...s, token_version: Number(s.token_version) }))
  const views = computeSessionViews(rows, labels, opts)
  return views.map((v, i) => {
    const s = rows[i] as ListedSession
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
