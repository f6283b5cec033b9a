// The cast of the identity e2e files: the demo admin and agent logged in through the gateway, demo-workspace
// customers made on demand, and the audit record a write left behind; one per started system.
import { randomBytes } from 'node:crypto'
import type { Test } from 'tap'
import { login, register, type TokenPair } from './auth.ts'
import { client, until } from './http.ts'
import { decodeJwt } from './identity-kit.ts'
import type { System } from './system.ts'

export async function identityActors(system: System) {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const as = { token: admin.token }
  const me = (token: string) => api.get('/api/v1/auth/me', { token })

  /** A customer of the demo workspace (so the demo admin can act on it) and its register token pair. */
  async function demoCustomer(name: string) {
    const reg = await register(api, `${name}_${suffix}`, demo)
    if (reg.status !== 201) throw new Error(`register ${name}: ${reg.status} ${reg.text}`)
    return { ...reg.body, username: `${name}_${suffix}`, password: reg.password }
  }
  const sessionOf = (pair: TokenPair) => decodeJwt(pair.token).payload.session_id as string

  /** The audit record of `action` on `resourceId`, polled (the audit service consumes events), parsed. */
  async function auditRecord(t: Test, action: string, resourceId: string) {
    const record = await until(`audit ${action} ${resourceId}`, async () => {
      const res = await api.get(`/api/audit/logs?action=${action}&success=true`, as)
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`)
      return (res.body.data as any[]).find((r) => r.resource_id === resourceId)
    })
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
    t.equal(record.method === 'POST' || record.method === 'PUT', true, `${action} is a write`)
    return { record, before: parse(record.before_json), after: parse(record.after_json) }
  }

  return { api, suffix, demo, admin, agent, adminId: admin.user.id, as, me, demoCustomer, sessionOf, auditRecord }
}
