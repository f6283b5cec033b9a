import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'

/** The caller most service tests start from: an admin of acme/support holding every permission. */
export const ACME_ADMIN: Principal = {
  user_id: 'admin-1',
  kind: 'admin',
  roles: ['admin'],
  permissions: ['*'],
  tenant_id: 'acme',
  workspace_id: 'support',
  session_id: 'sess-1',
  jti: 'jti-1',
  token_tenant_id: '',
  token_workspace_id: '',
}

/**
 * A principal as the gateway passes it: `base` with `overrides`, the token's scope (`token_*`) defaulting to
 * the effective scope, as for a scoped token.
 */
export function testPrincipal(overrides: Partial<Principal> = {}, base: Principal = ACME_ADMIN): Principal {
  const p: Principal = { ...base, ...overrides }
  return {
    ...p,
    token_tenant_id: p.token_tenant_id || p.tenant_id,
    token_workspace_id: p.token_workspace_id || p.workspace_id,
  }
}

/** The header the gateway would add for this principal, signed with the internal secret. */
export async function principalHeader(secret: string, p: Principal): Promise<Record<string, string>> {
  return { [PRINCIPAL_HEADER]: await signInternalPrincipal(secret, p) }
}
