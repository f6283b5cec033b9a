import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import {
  DeniedToken,
  Nullable,
  PRINCIPAL_HEADER,
  ScopeStatus,
  SessionTokenState,
  UserTokenState,
} from '@switchboard/contracts'
import { type Dispatcher, request } from 'undici'
import type { GatewayMetrics } from '../metrics.ts'
import { gatewayPrincipalToken } from '../service-principal.ts'

/** Identity's internal contract (see gateway/README.md). */
export const TOKEN_STATE_PATH = '/internal/token-state'
export const DENIED_PATH = '/internal/token-state/denied'
export const SCOPES_PATH = '/internal/token-state/scopes'

export const TokenStateResponse = Type.Object({
  user: Nullable(UserTokenState),
  session: Nullable(SessionTokenState),
})
export type TokenStateResponse = Static<typeof TokenStateResponse>
export const DeniedResponse = Type.Object({ items: Type.Array(DeniedToken) })
/** every disabled tenant (workspace_id '') and workspace */
export const DisabledScopes = Type.Object({ items: Type.Array(ScopeStatus) })

export interface IdentityClientOptions {
  pick: () => string | undefined
  internalSecret: string
  timeoutMs: number
  metrics: GatewayMetrics
  /** the gateway's own connection pool, closed with it */
  dispatcher: Dispatcher
}

export function createIdentityClient(opts: IdentityClientOptions) {
  // identity should accept only kind `service`
  const principalToken = gatewayPrincipalToken(opts.internalSecret, 'gateway-token-state')

  async function get<T>(kind: string, path: string, schema: Parameters<typeof Value.Check>[0]): Promise<T> {
    const base = opts.pick()
    if (!base) {
      opts.metrics.tokenStateFetches.inc({ kind, result: 'not_configured' })
      throw new Error('identity upstream is not configured')
    }
    try {
      const res = await request(`${base}${path}`, {
        method: 'GET',
        headers: { [PRINCIPAL_HEADER]: await principalToken(), accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs),
        dispatcher: opts.dispatcher,
      })
      const body: unknown = await res.body.json().catch(() => undefined)
      if (res.statusCode !== 200) throw new Error(`identity answered ${res.statusCode}`)
      if (!Value.Check(schema, body)) throw new Error('identity answered an unexpected shape')
      opts.metrics.tokenStateFetches.inc({ kind, result: 'ok' })
      return body as T
    } catch (err) {
      opts.metrics.tokenStateFetches.inc({ kind, result: 'error' })
      throw err
    }
  }

  return {
    fetchState(userId: string, sessionId: string): Promise<TokenStateResponse> {
      // Identity's query schema refuses empty ids; a service token may have no session.
      const q = new URLSearchParams({ user_id: userId })
      if (sessionId) q.set('session_id', sessionId)
      return get('state', `${TOKEN_STATE_PATH}?${q}`, TokenStateResponse)
    },
    async fetchDenied(): Promise<DeniedToken[]> {
      return (await get<{ items: DeniedToken[] }>('denied', DENIED_PATH, DeniedResponse)).items
    },
    async fetchDisabledScopes(): Promise<ScopeStatus[]> {
      return (await get<{ items: ScopeStatus[] }>('scopes', SCOPES_PATH, DisabledScopes)).items
    },
  }
}
export type IdentityClient = ReturnType<typeof createIdentityClient>
