import { signInternalPrincipal } from '@switchboard/auth'
import type { Principal } from '@switchboard/contracts'

const TTL_S = 300

/**
 * The gateway calls services (identity's token state, audit's hand-over) as a service principal. The token is
 * re-signed a minute before it lapses, so a hot path signs nothing per call. `jti` names the caller in logs.
 */
export function gatewayPrincipalToken(internalSecret: string, jti: string): () => Promise<string> {
  const principal: Principal = {
    user_id: 'gateway',
    kind: 'service',
    roles: [],
    permissions: [],
    tenant_id: '',
    workspace_id: '',
    session_id: '',
    jti,
    token_tenant_id: '',
    token_workspace_id: '',
  }
  let signed: { token: string; renewAt: number } | undefined
  return async () => {
    if (!signed || Date.now() >= signed.renewAt) {
      const token = await signInternalPrincipal(internalSecret, principal, TTL_S)
      signed = { token, renewAt: Date.now() + (TTL_S - 60) * 1000 }
    }
    return signed.token
  }
}
