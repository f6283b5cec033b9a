// A tenant erasing itself, end to end through the gateway in both run modes (harness/erasure-tenant-kit.ts builds
// the world): one call by its administrator; every unit carries out `identity.tenant.erasure_requested` and reports;
// then no API, export or search returns any of the tenant's people — staff, customers, anonymous and widget visitors —
// or what they wrote; no table of any unit's database holds a marker and no Redis key names the tenant; statistics'
// totals are what they were; another tenant keeps everything. Another tenant's administrator gets the 404 of a
// tenant that does not exist; repeating the request answers with the first erasure.

import { switchboard } from './harness/cli.ts'
import { conversationsKit, getUpload, must } from './harness/conversations-kit.ts'
import {
  clean,
  fleetRedis,
  leaks,
  markersEverywhere,
  markersIn,
  settledTotals,
  tenantAdmin,
} from './harness/erasure-kit.ts'
import { leavingTenant, stayingTenant } from './harness/erasure-tenant-kit.ts'
import { until } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

const REPORTERS = [
  'ai-orchestrator',
  'audit',
  'cache',
  'config-governance',
  'conversations',
  'dlq',
  'identity',
  'realtime-voice',
  'tickets',
]

inEachMode('erasure: a tenant erased everywhere, totals kept, another tenant untouched', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api, suffix } = kit
  const gone = kit.freshScope('etg')
  const kept = kit.freshScope('etk')
  const staff = kit.svc(gone)
  const platform = { token: kit.service }
  const world = await leavingTenant(system, kit, gone)
  const stays = await stayingTenant(kit, kept)
  const foreign = await tenantAdmin(api, kit.service, kit.freshScope('etf'), `etf_admin_${suffix}`)
  const { markers } = world
  const redis = fleetRedis(system)
  t.teardown(() => redis?.close())
  // a cached entry of each tenant under the fleet's prefix (what a unit's cache or presence would hold)
  await redis?.set(`${redis.prefix}e2e-probe:${gone.tenant_id}`, 'x')
  await redis?.set(`${redis.prefix}e2e-probe:${kept.tenant_id}`, 'x')

  const before = await settledTotals(api, staff, (b) => b.total_tickets === 2 && b.total_sessions === 2)
  t.match(before, { total_tickets: 2, total_sessions: 2 }, `statistics counted it all: ${JSON.stringify(before)}`)
  await until('audit records of the tenant', async () => {
    const r = await api.get('/api/audit/logs?page_size=200', staff)
    return r.status === 200 && leaks(r.body, [`KB${suffix}K`, `MC${suffix}M`]).length === 2 ? r.body : undefined
  })

  t.test('before: the units hold the tenant (what the scans after the erasure must not find)', async (t) => {
    const held = await markersEverywhere(system, markers)
    for (const service of ['identity', 'conversations', 'tickets', 'ai-orchestrator', 'audit', 'config-governance']) {
      const unit = held.find((h) => h.service === service)
      t.ok(unit && unit.found.length > 0, `${service}: ${unit?.found.join('; ')}`)
    }
    if (redis) t.equal((await redis.keys(gone.tenant_id)).length > 0, true, 'Redis holds a key naming the tenant')
  })

  t.test("another tenant's administrator is told nothing", async (t) => {
    const path = `/api/security/tenants/${gone.tenant_id}/erasure`
    const r = await api.post(path, undefined, { token: foreign.token })
    isError(t, r, 404, 'IDENTITY_TENANT_NOT_FOUND')
    isError(t, await api.post(path, undefined, { token: world.agentToken }), 403)
    t.equal((await api.get('/api/customers', staff)).body?.total, 3, 'and its customers are still there')
  })

  let erasureId = ''
  t.test('one call erases the tenant; every unit reports', async (t) => {
    const path = `/api/security/tenants/${gone.tenant_id}/erasure`
    const r = await api.post(path, undefined, { token: world.admin.token })
    t.equal(r.status, 202, r.text)
    t.match(r.body, { tenant_id: gone.tenant_id, status: 'disabled', started: 3, report: { id: String } })
    clean(t, 'the answer', r.body, markers)
    erasureId = r.body.report.id
    const done = await until(
      "the tenant's erasure completed",
      async () => {
        const x = await api.get(path, platform)
        return x.body?.report?.status === 'completed' && x.body.erasures.in_progress === 0 ? x.body : undefined
      },
      60_000,
    )
    t.same(done.report.pending, [])
    t.match(done, { status: 'disabled', erasures: { in_progress: 0, completed: 3 } })
    const by = Object.fromEntries((done.report.services as any[]).map((s) => [s.service, s.counts]))
    t.same(Object.keys(by).sort(), REPORTERS)
    t.match(by.identity, { customers_erased: 3, workspaces_emptied: 1 })
    t.ok(by.identity.staff_accounts_emptied >= 2, `staff accounts emptied: ${by.identity.staff_accounts_emptied}`)
    t.ok(by.identity.auth_sessions_revoked >= 2, `auth sessions revoked: ${by.identity.auth_sessions_revoked}`)
    t.match(by.conversations, { sessions_tombstoned: 2, uploads_deleted: 1 })
    t.ok(by.conversations.messages_tombstoned >= 3, `messages tombstoned: ${by.conversations.messages_tombstoned}`)
    t.match(by.tickets, { tickets_tombstoned: 2, comments_tombstoned: 1, macros_deleted: 1 })
    t.match(by['ai-orchestrator'], { knowledge_docs_deleted: 1 })
    t.match(by['config-governance'], { configs_emptied: 1, history_entries_masked: 1, integrations_deleted: 1 })
    t.ok(by.audit.records_masked > 5, `audit records masked: ${by.audit.records_masked}`)
    if (redis) t.ok(by.cache.redis_keys_deleted >= 1, `Redis keys deleted: ${by.cache.redis_keys_deleted}`)
    else t.equal(by.cache.redis_keys_deleted, 0, 'the embedded default has no shared Redis')
    clean(t, 'the report', done, markers)
  })

  t.test('no API, export or search returns its people', async (t) => {
    for (const who of [world.admin.username, world.agent.username, world.customer.username]) {
      const r = await api.post('/api/v1/auth/login', { username: who, password: 'x'.repeat(12) })
      t.equal(r.status, 401, `${who} no longer logs in`)
    }
    const login = await api.post('/api/v1/auth/login', {
      username: world.agent.username,
      password: world.agent.password,
    })
    t.equal(login.status, 401, 'not with its password either')
    const refused = await api.get('/api/customers', { token: world.admin.token })
    t.ok([401, 403].includes(refused.status), `the administrator's token is refused (${refused.status})`)

    const reads = [
      '/api/customers?page_size=200',
      `/api/customers?search=${encodeURIComponent('Leopold')}`,
      `/api/omni/sessions/${world.sessionId}`,
      `/api/omni/sessions/${world.sessionId}/messages?limit=200`,
      `/api/omni/sessions/${world.visitorSession}/messages?limit=200`,
      '/api/tickets?page_size=200',
      `/api/tickets/${world.ticketId}`,
      `/api/tickets/${world.widgetTicketId}`,
      `/api/tickets/${world.ticketId}/comments`,
      '/api/satisfactions?page_size=200',
      '/api/macros?page_size=200',
      '/api/knowledge-docs?page_size=200',
      `/api/assist/suggest?q=${encodeURIComponent(`KB${suffix}K`)}`,
      '/api/agents?page_size=200',
      '/api/security/users?page_size=200',
      '/api/audit/logs?page_size=200',
      '/api/security/config/workspace',
      '/api/security/config/workspace/history',
      '/api/apps/integrations',
      `/public/portal/config?tenant_id=${gone.tenant_id}&workspace_id=${gone.workspace_id}`,
    ]
    for (const path of reads) clean(t, path, (await api.get(path, staff)).body, markers)
    for (const q of [`CR${suffix}X`, `WT${suffix}W`, 'Crate']) {
      const r = must(await api.get(`/api/tickets?search=${encodeURIComponent(q)}`, staff), 200, 'ticket search')
      t.equal(r.total, 0, `ticket search for "${q}" finds nothing`)
    }
    const docs = must(await api.get(`/api/knowledge-docs?search=KB${suffix}K`, staff), 200, 'doc search')
    t.equal(docs.total ?? docs.data?.length ?? 0, 0, 'the knowledge search finds nothing')
    t.equal(must(await api.get('/api/macros', staff), 200, 'macros').total, 0, 'no macro left')
    const tickets = must(await api.get(`/api/tickets/${world.ticketId}`, staff), 200, 'ticket')
    t.equal(tickets.status, 'open', 'the ticket keeps its status')
    const thread = must(await api.get(`/api/omni/sessions/${world.sessionId}/messages`, staff), 200, 'messages')
    t.ok((thread.items as unknown[]).length >= 2, 'the messages are still counted')
    isError(t, await getUpload(system.url, `/uploads/${world.upload.id}`, platform), 404)
    const logs = must(await api.get('/api/audit/logs?page_size=200', staff), 200, 'audit')
    t.ok((logs.data as unknown[]).length >= 5, 'the audit log keeps its actions')
    for (const record of (logs.data as any[]).slice(0, 40)) {
      clean(t, `audit record ${record.action}`, (await api.get(`/api/audit/logs/${record.id}`, staff)).body, markers)
    }
    clean(t, 'the registry', (await api.get(`/api/security/tenants/${gone.tenant_id}`, platform)).body, markers)
    const workspaces = await api.get(`/api/security/tenants/${gone.tenant_id}/workspaces`, platform)
    clean(t, "the registry's workspaces", workspaces.body, markers)
    const exported = await api.get(`/api/customers/${world.customer.id}/export`, staff)
    isError(t, exported, 404, 'IDENTITY_CUSTOMER_NOT_FOUND')
  })

  t.test("no unit's database holds a marker, no Redis key names the tenant", async (t) => {
    for (const { service, tables, found } of await markersEverywhere(system, markers)) {
      t.ok(tables > 0, `${service}: its tables were read`)
      t.same(found, [], `${service}: no table holds the tenant's people (${tables} tables read)`)
    }
    if (!redis) return
    t.same(await redis.keys(gone.tenant_id), [], 'no key of the shared Redis names the tenant')
    t.same(await redis.keys(kept.tenant_id), [`${redis.prefix}e2e-probe:${kept.tenant_id}`], "the other's stays")
  })

  t.test('the CLI: erase again, read the report', async (t) => {
    const env = { JWT_SECRET: system.env.JWT_SECRET! }
    const again = await switchboard(['tenant', 'erase', gone.tenant_id, '--gateway', system.url, '--json'], env)
    const body = JSON.parse(again.stdout)
    t.match(body, { tenant_id: gone.tenant_id, status: 'disabled', started: 0, report: { status: 'completed' } })
    t.equal(body.report.id, erasureId, 'switchboard tenant erase answers with the first erasure')
    clean(t, 'the CLI answer', body, markers)
    const report = await switchboard(['tenant', 'erasure', gone.tenant_id, '--gateway', system.url], env)
    t.match(report.stdout, new RegExp(`erasure ${erasureId} of tenant ${gone.tenant_id}: completed \\(tenant disabled`))
    t.match(report.stdout, /config-governance\s+configs_emptied=1 history_entries_masked=1 /)
    t.notMatch(report.stdout, /pending:/)
  })

  t.test("statistics' totals are unchanged", async (t) => {
    t.same(await settledTotals(api, staff, () => true), before)
  })

  t.test('the other tenant keeps everything', async (t) => {
    const them = kit.svc(kept)
    const c = must(await api.get(`/api/customers/${stays.customer.id}`, them), 200, 'kept customer')
    t.equal(c.name, `Kasimir ${suffix}`)
    const thread = must(await api.get(`/api/omni/sessions/${stays.sessionId}/messages`, them), 200, 'kept thread')
    t.same(leaks(thread, stays.markers), [`KS${suffix}K`], 'its messages')
    const docs = must(await api.get('/api/knowledge-docs?page_size=50', them), 200, 'kept docs')
    t.same(leaks(docs, stays.markers), [`KD${suffix}K`], 'its knowledge doc')
    const held = await markersEverywhere(system, stays.markers)
    t.ok(held.find((h) => h.service === 'conversations')?.found.length, 'conversations still holds it')
    t.ok(held.find((h) => h.service === 'ai-orchestrator')?.found.length, 'ai-orchestrator still holds it')
  })

  t.test('a record arriving after the erasure that names its people is stored masked', async (t) => {
    // a tenant of staff only, so that nothing but its own erasure taught audit whom to mask
    const bare = kit.freshScope('etb')
    const signed = (await tenantAdmin(api, kit.service, bare, `bare_admin_${suffix}`)).username
    const path = `/api/security/tenants/${bare.tenant_id}/erasure`
    must(await api.post(path, undefined, platform), 202, 'staff-only tenant erased')
    await until('its erasure completed', async () => {
      const x = await api.get(path, platform)
      return x.body?.report?.status === 'completed' ? x.body : undefined
    })
    // a write in the erased scope (a service's token is still let through) naming its erased administrator
    const late = { name: `Late MC${suffix}L`, content: `Signed, ${signed}` }
    const macro = must(await api.post('/api/macros', late, kit.svc(bare)), 201, 'late macro')
    const record = await until('the late record audited', async () => {
      const r = await api.get('/api/audit/logs?action=macros.create&page_size=50', kit.svc(bare))
      return (r.body?.data as any[] | undefined)?.find((x) => x.resource_id === macro.id)
    })
    const detail = must(await api.get(`/api/audit/logs/${record.id}`, kit.svc(bare)), 200, 'late record')
    clean(t, 'the late record', detail, [signed])
    t.equal(detail.action, 'macros.create', 'the action stays')
    must(await api.call('DELETE', `/api/macros/${macro.id}`, kit.svc(bare)), 204, 'late macro deleted')
    const { found } = await markersIn(system, 'audit', [signed])
    t.same(found, [], "no audit record holds the erased administrator's login")
  })

  t.test('repeating the request answers with the first erasure', async (t) => {
    const r = await api.post(`/api/security/tenants/${gone.tenant_id}/erasure`, undefined, platform)
    t.equal(r.status, 202, r.text)
    t.match(r.body, { started: 0, report: { id: erasureId, status: 'completed' } })
  })
})
