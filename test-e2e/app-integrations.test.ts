// App integrations end to end through the gateway, in both run modes (config-governance behind `/api/apps`): the
// demo administrator creates, changes and deletes an integration whose settings hold secrets; the demo agent lists
// and reads it (settings shown, secrets "[REDACTED]") and is refused every write at the gateway (403
// PERMISSION_DENIED naming integrations.write, audited); another tenant — a service principal of that tenant and an
// agent of it — finds the integration's id exactly as it finds an id nobody has, and lists nothing. No response,
// audit record or refusal holds a secret.
import { mintServiceToken } from '@switchboard/cli'
import { login, register } from './harness/auth.ts'
import { type Reply, until } from './harness/http.ts'
import { identityActors } from './harness/identity-actors.ts'
import { isError, likeMissing } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

const BASE = '/api/apps/integrations'
const SECRET = 'ck-e2e-NEVER-SHOWN-4d1f'
const SIGNING = 'sg-e2e-NEVER-SHOWN-9b2e'
const NOBODY = '0193aaaa-0000-7000-8000-000000000000'

inEachMode('app integrations', {}, async (t, system) => {
  const { api, suffix, admin, agent } = await identityActors(system)
  const asAdmin = { token: admin.token }
  const asAgent = { token: agent.token }
  const patch = (path: string, body: unknown, opts: { token: string }) => api.call('PATCH', path, { ...opts, body })
  const del = (path: string, opts: { token: string }) => api.call('DELETE', path, opts)
  const must = (r: Reply, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
    return r.body
  }

  // Tenant B: a service principal minted for it, and an agent of it (registered there, promoted, signed in).
  const tenantB = `apps${suffix}`
  const { token: platform } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  must(
    await api.post('/api/security/tenants', { id: tenantB, workspaces: [{ id: 'support' }] }, { token: platform }),
    201,
    'tenant B',
  )
  const { token: serviceB } = await mintServiceToken({
    service: 'e2e-b',
    permissions: ['*'],
    env: system.env,
    tenant_id: tenantB,
    workspace_id: 'support',
  })
  const asServiceB = { token: serviceB }
  const regB = await register(api, `appsagent_${suffix}`, { 'x-tenant-id': tenantB, 'x-workspace-id': 'support' })
  must(regB, 201, 'register in B')
  must(await api.post('/api/agents', { user_id: regB.body.user.id }, asServiceB), 201, 'agent in B')
  const asAgentB = { token: (await login(api, `appsagent_${suffix}`, regB.password)).token }

  const created = await api.post(
    BASE,
    {
      name: `Ledger ${suffix}`,
      vendor: 'Ledger Inc',
      category: 'billing',
      icon_url: 'https://cdn.ledger.example/icon.png',
      capabilities: ['sidebar'],
      config_schema: {
        type: 'object',
        properties: {
          region: { type: 'string', enum: ['eu', 'us'] },
          client_ref: { type: 'string', 'x-secret': true },
          signing: { type: 'string', format: 'password' },
        },
        required: ['region'],
      },
      config: { region: 'eu', client_ref: SECRET, signing: SIGNING },
      iframe_url: 'https://ledger.example/embed',
    },
    asAdmin,
  )
  t.equal(created.status, 201, created.text)
  const integration = created.body
  const url = `${BASE}/${integration.id}`
  t.match(integration, {
    slug: `ledger-${suffix}`,
    tenant_id: system.tenant_id,
    workspace_id: system.workspace_id,
    config: { region: 'eu', client_ref: '[REDACTED]', signing: '[REDACTED]' },
    secrets: { client_ref: /^sha256:/, signing: /^sha256:/ },
    enabled: true,
  })

  t.test('an agent of the workspace reads; every write is refused at the gateway', async (t) => {
    const list = await api.get(`${BASE}?page_size=200`, asAgent)
    t.equal(list.status, 200, list.text)
    t.match(list.body, { page: 1, page_size: 200, pages: 1 })
    t.ok(
      list.body.data.some((i: any) => i.id === integration.id),
      'listed',
    )
    const one = await api.get(url, asAgent)
    t.equal(one.status, 200, one.text)
    t.same(one.body.config, { region: 'eu', client_ref: '[REDACTED]', signing: '[REDACTED]' })
    for (const [what, reply] of [
      ['POST', await api.post(BASE, { name: 'Mine', iframe_url: 'https://mine.example' }, asAgent)],
      ['PUT', await api.put(url, { enabled: false }, asAgent)],
      ['PATCH', await patch(url, { config: { region: 'us' } }, asAgent)],
      ['DELETE', await del(url, asAgent)],
    ] as const) {
      isError(t, reply, 403, 'PERMISSION_DENIED', `agent ${what}`)
      t.match(reply.body.message, /integrations\.write/)
    }
    const refused = await until('the refused create in the audit log', async () => {
      const res = await api.get('/api/audit/logs?action=app_integrations.create&success=false', asAdmin)
      return (res.body.data as any[])?.find((r) => r.actor_user_id === agent.user.id && r.status_code === 403)
    })
    t.equal(refused.principal_kind, 'agent')
    t.equal((await api.get(url, asAdmin)).body.enabled, true, 'nothing changed')
  })

  t.test("another tenant's callers find the id like a missing one", async (t) => {
    for (const [who, as] of [
      ['service principal of B', asServiceB],
      ['agent of B', asAgentB],
    ] as const) {
      await likeMissing(
        t,
        `GET (${who})`,
        () => api.get(url, as),
        () => api.get(`${BASE}/${NOBODY}`, as),
      )
      t.equal((await api.get(BASE, as)).body.total, 0, `${who}: lists nothing`)
    }
    for (const [what, call] of [
      ['PUT', (id: string) => api.put(`${BASE}/${id}`, { name: 'taken over' }, asServiceB)],
      ['PATCH', (id: string) => patch(`${BASE}/${id}`, { config: { region: 'us' } }, asServiceB)],
      ['DELETE', (id: string) => del(`${BASE}/${id}`, asServiceB)],
    ] as const) {
      await likeMissing(
        t,
        `${what} (service principal of B)`,
        () => call(integration.id),
        () => call(NOBODY),
      )
    }
    // B may hold the same slug: another workspace, another integration
    const own = await api.post(BASE, { name: integration.name, iframe_url: 'https://b.example' }, asServiceB)
    t.equal(own.status, 201, own.text)
    t.equal(own.body.slug, integration.slug)
    const mine = await api.get(url, asAdmin)
    t.equal(mine.body.name, integration.name, 'unchanged by B')
  })

  t.test('the administrator changes and deletes it; no record holds a secret', async (t) => {
    const kept = await api.put(url, { config: { region: 'us', client_ref: '[REDACTED]' }, enabled: false }, asAdmin)
    t.equal(kept.status, 200, kept.text)
    t.same(kept.body.config, { region: 'us', client_ref: '[REDACTED]' }, 'signing left out: removed')
    t.equal(kept.body.secrets.client_ref, integration.secrets.client_ref, 'the kept secret')
    const bad = await patch(url, { iframe_url: 'javascript:alert(1)' }, asAdmin)
    isError(t, bad, 400, 'VALIDATION_FAILED', 'a javascript: URL')
    t.equal((await del(url, asAdmin)).status, 204)
    isError(t, await api.get(url, asAdmin), 404, 'CONFIG_INTEGRATION_NOT_FOUND', 'deleted')

    const records = await until('the delete in the audit log', async () => {
      const res = await api.get('/api/audit/logs?resource=app_integrations&limit=200', asAdmin)
      const data = res.body.data as any[]
      return data?.some((r) => r.action === 'app_integrations.delete' && r.resource_id === integration.id)
        ? data
        : undefined
    })
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
    const create = records.find((r) => r.action === 'app_integrations.create' && r.resource_id === integration.id)
    t.match(parse(create.request_json), { config: { region: 'eu', client_ref: '[REDACTED]', signing: '[REDACTED]' } })
    t.equal(parse(create.after_json).id, integration.id)
    const text = JSON.stringify(records)
    t.notOk(text.includes(SECRET) || text.includes(SIGNING), 'no audit record holds a secret')
  })
})
