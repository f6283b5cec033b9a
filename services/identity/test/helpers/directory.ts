import { DEFAULT_PERMISSION_TABLE } from '@switchboard/auth'
import type { Envelope, Principal } from '@switchboard/contracts'
import type { EventBus } from '@switchboard/events'
import { type StorageMode, waitFor } from '@switchboard/testing'
import type { Test } from 'tap'
import { type App, as, identityApp, PASSWORD } from './app.ts'

/** A principal as the gateway would pass it; `token_*` default to the effective scope (a scoped token). */
export function who(p: Partial<Principal> & Pick<Principal, 'kind'>): Principal {
  const base: Principal = {
    user_id: `${p.kind}-${p.tenant_id || 'platform'}`,
    roles: p.kind === 'service' ? [] : [p.kind === 'end_user' ? 'customer' : p.kind],
    permissions: p.kind === 'admin' || p.kind === 'service' ? ['*'] : [...(DEFAULT_PERMISSION_TABLE[p.kind] ?? [])],
    tenant_id: '',
    workspace_id: '',
    session_id: '',
    jti: `jti-${p.kind}`,
    token_tenant_id: p.tenant_id ?? '',
    token_workspace_id: p.workspace_id ?? '',
    ...p,
  }
  return base
}

/** The callers every suite uses: two tenants' admins, a scoped agent and end user, the platform service. */
export async function callers() {
  const acmeAdmin = who({ kind: 'admin', tenant_id: 'acme', workspace_id: 'support' })
  const globexAdmin = who({ kind: 'admin', tenant_id: 'globex', workspace_id: 'main' })
  return {
    acmeAdmin: await as(acmeAdmin),
    globexAdmin: await as(globexAdmin),
    acmeAgent: await as(who({ kind: 'agent', tenant_id: 'acme', workspace_id: 'support' })),
    acmeUser: await as(who({ kind: 'end_user', tenant_id: 'acme', workspace_id: 'support' })),
    platform: await as(who({ kind: 'service' })),
    /** an unscoped service token narrowed by selectors to acme/support */
    platformInAcme: await as(
      who({ kind: 'service', tenant_id: 'acme', workspace_id: 'support', token_tenant_id: '', token_workspace_id: '' }),
    ),
  }
}

/** An identity app, the usual callers, and a recorder of its events (stopped at teardown). */
export async function directoryFixture(t: Test, mode: StorageMode) {
  const { app, svc } = await identityApp(t, mode)
  const who = await callers()
  const rec = await recordEvents(svc.bus)
  t.teardown(() => rec.stop())
  /** one request as a caller, with a JSON body if given */
  const req = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  return { app, svc, who, rec, req }
}

/** Records every identity and audit event that reaches the bus from now on. */
export async function recordEvents(bus: EventBus) {
  const events: Envelope[] = []
  const subs = [
    await bus.subscribe('identity.>', async (d) => {
      events.push(d.envelope)
    }),
    await bus.subscribe('audit.>', async (d) => {
      events.push(d.envelope)
    }),
  ]
  return {
    events,
    /** waits for an event of `type` whose data satisfies `match` */
    async find<T = any>(type: string, match: (data: T) => boolean = () => true, timeoutMs = 5000) {
      return waitFor(
        () => events.find((e) => e.type === type && match(e.data as T)) as Envelope<T> | undefined,
        timeoutMs,
      )
    },
    /** the audit record of a write, by action and resource id */
    async audit(action: string, resourceId: string) {
      const e = await waitFor(() =>
        events.find(
          (e) =>
            e.type === 'audit.record.recorded' &&
            (e.data as any).action === action &&
            (e.data as any).resource_id === resourceId,
        ),
      )
      return e.data as Record<string, any>
    },
    async stop() {
      for (const s of subs) await s.stop()
    },
  }
}

export interface CreatedCustomer {
  id: string
  user_id: string
  username: string
  tenant_id: string
  workspace_id: string
}

export async function createCustomer(
  app: App,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<CreatedCustomer> {
  const res = await app.inject({ method: 'POST', url: '/api/customers', headers, payload: body })
  if (res.statusCode !== 201) throw new Error(`create customer: ${res.statusCode} ${res.body}`)
  return { ...(res.json() as CreatedCustomer), username: String(body.username ?? '') }
}

/** A customer who can log in: `Alice` at `acme.test` is username alice, alice@acme.test, the test password. */
export function createMember(app: App, headers: Record<string, string>, name: string, domain: string) {
  const username = name.toLowerCase()
  return createCustomer(app, headers, { name, email: `${username}@${domain}`, username, password: PASSWORD })
}

/** Logs a directory user in (the password tests give every customer) from a given device and address. */
export async function login(app: App, username: string, device: string, ip = '8.8.8.8') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'x-device-id': device, 'x-forwarded-for': ip, 'user-agent': `test/${device}` },
    payload: { username, password: PASSWORD },
  })
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`)
  return res.json() as { token: string; refresh_token: string; user: { id: string } }
}

/** The body of an error answer without its request id: what two 404s must share. */
export function errorShape(res: { statusCode: number; json(): any }) {
  const { error, code, message } = res.json()
  return { status: res.statusCode, error, code, message }
}
