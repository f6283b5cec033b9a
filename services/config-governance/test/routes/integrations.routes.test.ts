import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ALICE, as } from '../helpers/app.ts'
import { BASE, CRM_SCHEMA, integrationsFixture } from '../helpers/integrations.ts'

const SECRETS = { client_ref: 'cr-NEVER-SHOWN-11', signing: 'sg-NEVER-SHOWN-22', api_token: 'at-NEVER-SHOWN-33' }

inEachStorageMode(t, 'app integrations: create, list, read, update, delete, with events and audit', async (t, mode) => {
  const { rec, alice, call } = await integrationsFixture(t, mode)

  const minimal = await call(alice, 'POST', BASE, { name: 'Acme CRM (EU)', iframe_url: 'https://crm.example/app' })
  t.equal(minimal.statusCode, 201, minimal.body)
  t.match(minimal.json(), {
    name: 'Acme CRM (EU)',
    slug: 'acme-crm-eu',
    vendor: '',
    category: '',
    summary: '',
    icon_url: null,
    capabilities: [],
    config_schema: {},
    config: {},
    secrets: {},
    iframe_url: 'https://crm.example/app',
    enabled: true,
    last_sync_status: null,
    tenant_id: 'acme',
    workspace_id: 'support',
    version: 1,
  })

  const full = await call(alice, 'POST', BASE, {
    name: 'Ledger',
    slug: 'ledger',
    vendor: 'Ledger Inc',
    category: 'billing',
    summary: 'invoices of the customer',
    icon_url: 'https://cdn.ledger.example/icon.png',
    capabilities: ['sidebar', 'ticket_panel'],
    config_schema: CRM_SCHEMA,
    config: { region: 'eu', timeout: 10, ...SECRETS },
    iframe_url: 'https://ledger.example/embed',
    enabled: false,
  })
  t.equal(full.statusCode, 201, full.body)
  const ledger = full.json()
  t.same(ledger.config, {
    region: 'eu',
    timeout: 10,
    client_ref: '[REDACTED]',
    signing: '[REDACTED]',
    api_token: '[REDACTED]',
  })
  t.match(ledger.secrets, { client_ref: /^sha256:[0-9a-f]{12}$/, signing: /^sha256:/, api_token: /^sha256:/ })
  t.same(ledger.config_schema, CRM_SCHEMA, 'the schema as sent')

  const dup = await call(alice, 'POST', BASE, { name: 'Ledger again', slug: 'ledger', iframe_url: 'https://x.example' })
  t.equal(dup.statusCode, 409)
  t.equal(dup.json().code, 'CONFIG_INTEGRATION_SLUG_TAKEN')
  t.same(Object.keys(dup.json()).sort(), ['code', 'error', 'message', 'request_id'])

  // lists: the fleet's paging, filters
  const list = (await call(alice, 'GET', `${BASE}?page_size=1`)).json()
  t.match(list, { total: 2, page: 1, page_size: 1, pages: 2 })
  t.equal(list.data[0].slug, 'acme-crm-eu', 'by name')
  t.same(
    (await call(alice, 'GET', `${BASE}?enabled=false`)).json().data.map((i: any) => i.slug),
    ['ledger'],
  )
  t.same(
    (await call(alice, 'GET', `${BASE}?search=CRM`)).json().data.map((i: any) => i.slug),
    ['acme-crm-eu'],
  )
  t.same((await call(alice, 'GET', `${BASE}?category=billing`)).json().total, 1)
  t.equal((await call(alice, 'GET', `${BASE}?page_size=500`)).statusCode, 400)
  t.same((await call(alice, 'GET', `${BASE}/${ledger.id}`)).json(), ledger)

  // PATCH merges settings: the secrets stay; PUT with "[REDACTED]" keeps one, leaving one out removes it
  const patched = await call(alice, 'PATCH', `${BASE}/${ledger.id}`, { config: { timeout: 20 }, enabled: true })
  t.equal(patched.statusCode, 200, patched.body)
  t.match(patched.json(), { version: 2, enabled: true, config: { timeout: 20, client_ref: '[REDACTED]' } })
  t.same(patched.json().secrets, ledger.secrets, 'same fingerprints: same secrets')
  const updated = await rec.find('config.integration.updated', (d: any) => d.integration.version === 2)
  t.same(updated.data.changed, ['config', 'enabled'])
  t.match(updated, { tenant_id: 'acme', workspace_id: 'support' })

  const put = await call(alice, 'PUT', `${BASE}/${ledger.id}`, {
    config: { region: 'us', client_ref: '[REDACTED]', signing: 'sg-rotated-44' },
  })
  t.equal(put.statusCode, 200, put.body)
  t.same(Object.keys(put.json().secrets).sort(), ['client_ref', 'signing'], 'api_token left out: removed')
  t.equal(put.json().secrets.client_ref, ledger.secrets.client_ref)
  t.not(put.json().secrets.signing, ledger.secrets.signing, 'a new secret, a new fingerprint')
  t.same(put.json().config, { region: 'us', client_ref: '[REDACTED]', signing: '[REDACTED]' })

  const same = await call(alice, 'PATCH', `${BASE}/${ledger.id}`, { name: 'Ledger', config: { region: 'us' } })
  t.equal(same.json().version, 3, 'nothing changed: nothing stored')
  const synced = await call(alice, 'PATCH', `${BASE}/${ledger.id}`, { icon_url: null, last_sync_status: 'ok' })
  t.match(synced.json(), { icon_url: null, last_sync_status: 'ok', version: 4 })
  const unsynced = await call(alice, 'PATCH', `${BASE}/${ledger.id}`, { last_sync_status: null })
  t.match(unsynced.json(), { icon_url: null, last_sync_status: null, version: 5 })
  const removed = await call(alice, 'PATCH', `${BASE}/${ledger.id}`, { config: { client_ref: null } })
  t.same(Object.keys(removed.json().secrets), ['signing'], 'PATCH: null removes a setting')

  const del = await call(alice, 'DELETE', `${BASE}/${ledger.id}`)
  t.equal(del.statusCode, 204)
  t.equal((await call(alice, 'GET', `${BASE}/${ledger.id}`)).statusCode, 404)
  t.equal((await call(alice, 'DELETE', `${BASE}/${ledger.id}`)).statusCode, 404)
  await rec.find('config.integration.deleted', (d: any) => d.id === ledger.id && d.slug === 'ledger')
  const created = await rec.find('config.integration.created', (d: any) => d.integration.id === ledger.id)
  t.match(created.data.integration, { slug: 'ledger', config: { client_ref: '[REDACTED]' }, version: 1 })

  // audit: named actions, before/after views, secrets redacted in the request too
  const create = await rec.audit('app_integrations.create', (r) => r.resource_id === ledger.id)
  t.match(create, { resource_type: 'app_integrations', status_code: 201, success: true, route: BASE })
  t.same(create.request_json.config, {
    region: 'eu',
    timeout: 10,
    client_ref: '[REDACTED]',
    signing: '[REDACTED]',
    api_token: '[REDACTED]',
  })
  t.equal(create.after_json.id, ledger.id)
  const putAudit = await rec.audit('app_integrations.update', (r) => r.method === 'PUT')
  t.same(putAudit.request_json.config, { region: 'us', client_ref: '[REDACTED]', signing: '[REDACTED]' })
  t.equal(putAudit.before_json.config.timeout, 20)
  await rec.audit('app_integrations.delete', (r) => r.resource_id === ledger.id && r.status_code === 204)
  const refused = await rec.audit('app_integrations.create', (r) => r.status_code === 409)
  t.equal(refused.success, false, 'refused writes are recorded')

  const everything = JSON.stringify(rec.events)
  for (const secret of [...Object.values(SECRETS), 'sg-rotated-44']) {
    t.notOk(everything.includes(secret), `no event or audit record holds ${secret}`)
  }
})

inEachStorageMode(t, 'app integrations: secrets are sealed at rest and in no record', async (t, mode) => {
  const { svc, rec, alice, call } = await integrationsFixture(t, mode)
  const res = await call(alice, 'POST', BASE, {
    name: 'Vault',
    config_schema: { ...CRM_SCHEMA, additionalProperties: true },
    config: { region: 'eu', ...SECRETS, partnerApiKey: 'pk-NEVER-SHOWN-55' },
    iframe_url: 'https://vault.example',
  })
  t.equal(res.statusCode, 201, res.body)
  const row = await svc.db.selectFrom('app_integrations').selectAll().where('id', '=', res.json().id).executeTakeFirst()
  const raw = JSON.stringify(row)
  for (const secret of [...Object.values(SECRETS), 'pk-NEVER-SHOWN-55']) {
    t.notOk(raw.includes(secret), `${secret} is not in the row`)
  }
  const sealed = typeof row?.sealed_secrets === 'string' ? JSON.parse(row.sealed_secrets) : row?.sealed_secrets
  t.same(Object.keys(sealed).sort(), ['api_token', 'client_ref', 'partnerApiKey', 'signing'])
  for (const v of Object.values(sealed)) t.match(v, /^v1\.[A-Za-z0-9_-]{8}\./, 'sealed (AES-256-GCM, key id)')
  t.equal(svc.box.open(sealed.client_ref), SECRETS.client_ref, 'opens to the value sent')
  const config = typeof row?.config === 'string' ? JSON.parse(row.config) : row?.config
  t.same(config, { region: 'eu' }, 'only the plain settings in config')

  // refused writes: their audit records redact every setting, whichever check refused them
  const secret = 'rf-NEVER-SHOWN-66'
  const refusals = [
    // the body's schema (an unknown field)
    { name: 'R1', iframe_url: 'https://r.example', config: { client_ref: secret }, colour: 'red' },
    // the URL rule, in the handler
    { name: 'R2', iframe_url: 'javascript:alert(1)', config_schema: CRM_SCHEMA, config: { client_ref: secret } },
    // the platform's input guard (a NUL character), before any route hook
    { name: 'R3\u0000', iframe_url: 'https://r.example', config: { client_ref: secret } },
  ]
  for (const body of refusals) t.equal((await call(alice, 'POST', BASE, body)).statusCode, 400, body.name)
  const patch = await call(alice, 'PATCH', `${BASE}/${res.json().id}`, { config: { client_ref: secret, region: 9 } })
  t.equal(patch.statusCode, 400, 'a setting off its schema')
  t.match(patch.json().message, /^body\.config\.region: /)
  for (const name of ['R1', 'R2', 'R3']) {
    const record = await rec.audit('app_integrations.create', (r) => String(r.request_json?.name).startsWith(name))
    t.equal(record.request_json.config.client_ref, '[REDACTED]', `${name}: redacted`)
  }
  await rec.audit('app_integrations.update', (r) => r.status_code === 400)
  t.notOk(JSON.stringify(rec.events).includes(secret), 'no audit record holds the refused secret')
  const outbox = await svc.db
    .selectFrom('outbox' as never)
    .selectAll()
    .execute()
    .catch(() => [])
  t.notOk(JSON.stringify(outbox).includes(secret))
})

inEachStorageMode(t, "app integrations: another scope's id is a missing one", async (t, mode) => {
  const { alice, call } = await integrationsFixture(t, mode)
  const created = await call(alice, 'POST', BASE, {
    name: 'Shared',
    iframe_url: 'https://s.example',
    config_schema: CRM_SCHEMA,
    config: { region: 'eu', signing: 'x-secret-value' },
  })
  const id = created.json().id
  const globex = await as({ ...ALICE, tenant_id: 'globex', workspace_id: 'main' })
  const otherWorkspace = await as({ ...ALICE, workspace_id: 'sales' })
  const nobody = '0193aaaa-0000-7000-8000-000000000000'
  for (const who of [globex, otherWorkspace]) {
    const shape = async (method: string, target: string) => {
      const body = method === 'PUT' || method === 'PATCH' ? { name: 'taken over' } : undefined
      const r = await call(who, method, `${BASE}/${target}`, body)
      return { status: r.statusCode, code: r.json().code, message: r.json().message.replace(target, '<id>') }
    }
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const foreign = await shape(method, id)
      t.same(foreign, await shape(method, nobody), `${method}: like a missing id`)
      t.equal(foreign.status, 404)
    }
    t.equal((await call(who, 'GET', BASE)).json().total, 0, 'not listed')
  }
  t.equal((await call(alice, 'GET', `${BASE}/${id}`)).json().name, 'Shared', 'unchanged')

  // the same slug in another workspace is another integration
  t.equal(
    (await call(otherWorkspace, 'POST', BASE, { name: 'Shared', iframe_url: 'https://s.example' })).statusCode,
    201,
  )
  // a principal without a workspace lists what its scope holds and must name one to create
  const tenantWide = await as({ ...ALICE, workspace_id: '', token_workspace_id: '' })
  t.equal((await call(tenantWide, 'GET', BASE)).json().total, 2, 'both workspaces of acme')
  const noWorkspace = await call(tenantWide, 'POST', BASE, { name: 'Where', iframe_url: 'https://w.example' })
  t.equal(noWorkspace.statusCode, 400)
  t.match(noWorkspace.json().message, /workspace_id/)
})

inEachStorageMode(t, 'app integrations: bad input is a 400 naming the field', async (t, mode) => {
  const { alice, call } = await integrationsFixture(t, mode)
  const post = (body: Record<string, unknown>) =>
    call(alice, 'POST', BASE, { name: 'App', iframe_url: 'https://app.example', ...body })
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ name: undefined }, /body.*name/],
    [{ iframe_url: undefined }, /body.*iframe_url/],
    [{ iframe_url: 'javascript:alert(document.cookie)' }, /^body\.iframe_url: must be an https URL/],
    [{ iframe_url: 'http://app.example/' }, /^body\.iframe_url: must be an https URL/],
    [{ iframe_url: 'https://u:p@app.example/' }, /^body\.iframe_url: must not carry credentials/],
    [{ icon_url: 'data:image/svg+xml,<svg onload=alert(1)>' }, /^body\.icon_url: /],
    [{ name: '   ' }, /^body\.name: must not be blank/],
    [{ name: '!!!' }, /^body\.slug: is required/],
    [{ slug: 'Not A Slug' }, /body\.slug/],
    [{ capabilities: ['a', 'a'] }, /body\.capabilities/],
    [{ config_schema: { properties: { a: { type: 'string', pattern: '^(a+)+$' } } } }, /body\.config_schema/],
    [{ config_schema: { properties: { a: { type: 'string' } }, required: ['b'] } }, /^body\.config_schema\.required/],
    [{ config_schema: { properties: { 'bad key': { type: 'string' } } } }, /body\.config_schema/],
    [{ config: { undeclared: 1 } }, /^body\.config\.undeclared: is not declared/],
    [{ config_schema: CRM_SCHEMA, config: { region: 'mars' } }, /^body\.config\.region: must be one of eu, us/],
    [{ config_schema: CRM_SCHEMA, config: {} }, /^body\.config\.region: is required/],
    [{ config: 'x' }, /body\.config/],
    [{ enabled: 'maybe' }, /body\.enabled/],
  ]
  for (const [body, message] of cases) {
    const res = await post(body)
    t.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`)
    t.match(res.json(), { error: 'bad_request', message }, JSON.stringify(body))
  }
  const notStored = await post({ config_schema: CRM_SCHEMA, config: { region: 'eu', signing: '[REDACTED]' } })
  t.equal(notStored.json().code, 'CONFIG_INTEGRATION_SECRET_NOT_STORED')
  // enum values keep their type: 1 stays a number, "1" a string (no coercion through a union)
  const enums = await post({
    slug: 'enums',
    config_schema: { properties: { n: { type: 'integer', enum: [1, 2] }, s: { type: 'string', enum: ['1', '2'] } } },
    config: { n: 2, s: '1' },
  })
  t.equal(enums.statusCode, 201, enums.body)
  t.same(enums.json().config_schema.properties, {
    n: { type: 'integer', enum: [1, 2] },
    s: { type: 'string', enum: ['1', '2'] },
  })
  t.same(enums.json().config, { n: 2, s: '1' })
  t.match(
    (await post({ slug: 'mixed', config_schema: { properties: { n: { type: 'integer', enum: [1, '2'] } } } })).json(),
    {
      message: /^body\.config_schema\.properties\.n\.enum: every value must be a valid integer/,
    },
  )
  // development (the default environment) allows http for a loopback host: an app on the developer's machine
  t.equal((await post({ iframe_url: 'http://127.0.0.1:5173/app' })).statusCode, 201)
  const empty = await call(alice, 'PATCH', `${BASE}/0193aaaa-0000-7000-8000-000000000000`, {})
  t.equal(empty.statusCode, 400, 'an update names at least one field')
})

inEachStorageMode(t, 'app integrations: http is refused for loopback hosts outside development', async (t, mode) => {
  const { alice, call } = await integrationsFixture(t, mode, { SERVER_ENVIRONMENT: 'production' })
  const res = await call(alice, 'POST', BASE, { name: 'Local', iframe_url: 'http://localhost:5173/app' })
  t.equal(res.statusCode, 400)
  t.match(res.json().message, /^body\.iframe_url: must be an https URL/)
})
