import { buildKeyring, type Keyring } from '@switchboard/auth'
import type { ServiceContext } from '@switchboard/platform'
import type { IdentityConfig } from './config.ts'
import type { IdentityDatabase } from './db/database.ts'
import { type Cidr, parseCidrs } from './domain/fingerprint.ts'
import { createPasswordHasher, type PasswordHasher } from './domain/passwords.ts'
import { createSessionRiskPolicySource, type SessionRiskPolicySource } from './domain/session-risk-policy.ts'
import { createIpIntel, type IpIntel } from './ip-intel/index.ts'
import { scopedSessionRiskOverrides } from './queries/session-risk-overrides.queries.ts'

/** identity's own parts of the context: made once per app by the descriptor's `context` (no module state). */
export interface IdentityExtras {
  keys: Keyring
  passwords: PasswordHasher
  ipIntel: IpIntel
  riskPolicy: SessionRiskPolicySource
  trustedProxies: Cidr[]
}

/** What identity's routes, commands and workers are handed (built by the descriptor in build.ts). */
export type IdentityService = ServiceContext<IdentityConfig, IdentityDatabase> & IdentityExtras

export async function identityExtras(svc: ServiceContext<IdentityConfig, IdentityDatabase>): Promise<IdentityExtras> {
  const { config, log } = svc
  return {
    keys: buildKeyring(config.jwt.secret, config.jwt.previous_secrets),
    passwords: await createPasswordHasher(config.passwords),
    ipIntel: createIpIntel(config.security.session_ip_intelligence, log),
    riskPolicy: createSessionRiskPolicySource({
      session_risk: config.security.session_risk,
      session_risk_profiles: config.security.session_risk_profiles,
      environment: config.environment,
      // tenant/workspace overrides from config-governance (consumers/config-overrides.consumer.ts)
      overrides: scopedSessionRiskOverrides(svc.db),
      runtime: config.security.session_risk_runtime,
      onError: (err) => log.warn({ err }, 'session risk overrides unavailable; system policy used'),
    }),
    trustedProxies: parseCidrs(config.security.trusted_proxies),
  }
}
