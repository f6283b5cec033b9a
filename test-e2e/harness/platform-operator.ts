// A platform operator whose console session is bound to no tenant: what identity's registry writes and the AI
// breaker reset demand (a platform administrator with one binding gets a token scoped to it, which they refuse).
// identity gives a platform admin an unscoped token when it has several bindings and names none at login, so the
// account gets two: the demo workspace and a second workspace of the demo tenant. Made through the API with an
// unscoped service token (what `switchboard token mint` prints).
import { mintServiceToken } from '@switchboard/cli'
import { login, type TokenPair } from './auth.ts'
import type { Client } from './http.ts'
import type { Account, System } from './system.ts'

export async function platformOperator(
  system: System,
  api: Client,
  suffix: string,
): Promise<Account & { login: TokenPair }> {
  const { token: service } = await mintServiceToken({ service: 'e2e-operator', permissions: ['*'], env: system.env })
  const must = async (what: string, reply: Promise<{ status: number; text: string; body: any }>, status = 201) => {
    const r = await reply
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
    return r.body
  }
  const username = `operator_${suffix}`
  const password = `Pw-operator-${suffix}-0123456789`
  const home = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const created = await must(
    'the operator',
    api.post(
      '/api/security/users',
      { username, email: `${username}@e2e.example.com`, role: 'admin', platform_admin: true, password },
      { token: service, headers: home },
    ),
  )
  const second = `opsdesk${suffix}`
  await must(
    'a second workspace',
    api.post(`/api/security/tenants/${system.tenant_id}/workspaces`, { id: second }, { token: service }),
  )
  await must(
    'the second binding',
    api.post(
      '/api/agents',
      { user_id: created.user.id },
      { token: service, headers: { 'x-tenant-id': system.tenant_id, 'x-workspace-id': second } },
    ),
  )
  const pair = await login(api, username, password)
  const claims = JSON.parse(Buffer.from(pair.token.split('.')[1] ?? '', 'base64url').toString())
  if (claims.tenant_id || claims.admin_reach !== 'platform') {
    throw new Error(`the operator's token is not an unscoped platform one: ${JSON.stringify(claims)}`)
  }
  return { username, password, login: pair }
}
