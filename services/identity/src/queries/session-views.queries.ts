import type { Scope } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import type { SessionRow } from '../db/sessions.repository.ts'
import { type AuthSessionView, authSessionViews } from '../domain/session-views.ts'
import { lookupAll } from '../ip-intel/index.ts'

/**
 * The session views both sides list (self-service with `currentSessionId`, the security surface without):
 * the risk policy of `scope` and the IP labels are resolved here, the views computed in domain/.
 */
export async function sessionViewsFor(
  svc: IdentityService,
  sessions: readonly SessionRow[],
  opts: { scope: Scope; currentSessionId?: string | undefined },
): Promise<AuthSessionView[]> {
  const now = new Date()
  const [policy, labels] = await Promise.all([
    svc.riskPolicy.policyFor(opts.scope),
    lookupAll(
      svc.ipIntel,
      sessions.map((s) => s.client_ip),
    ),
  ])
  return authSessionViews(sessions, labels, { policy, now, currentSessionId: opts.currentSessionId })
}
