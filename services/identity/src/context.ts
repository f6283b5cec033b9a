import { buildKeyring, type Keyring } from '@switchboard/auth'
import type { FastifyInstance } from 'fastify'
import type { IdentityConfig } from './config.ts'
import { parseCidrs } from './domain/fingerprint.ts'
import { createPasswordHasher, type PasswordHasher } from './domain/passwords.ts'
import { createSessionRiskPolicySource, type SessionRiskPolicySource } from './domain/session-risk-policy.ts'
import { createIpIntel, type IpIntel } from './ip-intel/index.ts'

/** What identity's routes share, made once per app in build() (no module state). */
export interface IdentityContext {
  config: IdentityConfig
  keys: Keyring
  passwords: PasswordHasher
  ipIntel: IpIntel
  riskPolicy: SessionRiskPolicySource
  trustedProxies: ReturnType<typeof parseCidrs>
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityContext
  }
}

export async function installIdentityContext(app: FastifyInstance, config: IdentityConfig): Promise<IdentityContext> {
  const ctx: IdentityContext = {
    config,
    keys: buildKeyring(config.jwt.secret, config.jwt.previous_secrets),
    passwords: await createPasswordHasher(config.passwords),
    ipIntel: createIpIntel(config.security.session_ip_intelligence, app.log),
    riskPolicy: createSessionRiskPolicySource({
      session_risk: config.security.session_risk,
      session_risk_profiles: config.security.session_risk_profiles,
      environment: config.environment,
      onError: (err) => app.log.warn({ err }, 'session risk overrides unavailable; system policy used'),
    }),
    trustedProxies: parseCidrs(config.security.trusted_proxies),
  }
  app.decorate('identity', ctx)
  return ctx
}
