import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PRINCIPAL_HEADER } from '@switchboard/contracts'
import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { ALICE, as, governanceApp, TENANT_ALICE } from '../helpers/app.ts'

/**
 * A stand-in owner (identity's or ai-orchestrator's `/internal/config/effective`, whose own tests are theirs): it
 * records which scope it was asked for and answers fields of its sections — plus one of another section, which
 * config-governance must drop (an owner answers only for what it owns). `status` other than 200 answers an error.
 */
async function standInOwner(t: Test, section: string, status = 200) {
  const asked: { tenant_id: string | null; workspace_id: string | null; principal: boolean }[] = []
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams
    asked.push({
      tenant_id: q.get('tenant_id'),
      workspace_id: q.get('workspace_id'),
      principal: typeof req.headers[PRINCIPAL_HEADER] === 'string',
    })
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify(
        status === 200
          ? {
              tenant_id: q.get('tenant_id'),
              workspace_id: q.get('workspace_id'),
              fields: [
                { path: `${section}.a`, value: `${q.get('tenant_id')}-value`, source: 'workspace' },
                { path: 'portal.brand_name', value: 'forged', source: 'runtime' },
                { path: `${section}.key`, value: 'sk-leaked', source: 'system', secret: true, set: true },
              ],
            }
          : { error: 'x', message: 'down', code: 'X', request_id: 'r' },
      ),
    )
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  t.teardown(() => new Promise<void>((ok) => server.close(() => ok())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked }
}

const GLOBEX_ADMIN = testPrincipal({ user_id: 'g-admin', tenant_id: 'globex', workspace_id: 'support' }, ALICE)

inEachStorageMode(t, "the effective configuration of the caller's scope, with each field's source", async (t, mode) => {
  const identity = await standInOwner(t, 'session_risk')
  const ai = await standInOwner(t, 'llm', 500)
  const { app } = await governanceApp(t, mode, {
    PORTAL_BRAND_NAME: 'System Desk',
    PORTAL_RUNTIME_JSON: JSON.stringify({ widget: { prechat: 'name' } }),
    UPSTREAM_IDENTITY: identity.url,
    UPSTREAM_AI_ORCHESTRATOR: ai.url,
  })
  const get = async (who: typeof ALICE, kind = 'workspace') =>
    app.inject({ method: 'GET', url: `/api/security/config/${kind}/effective`, headers: await as(who) })
  const fieldsOf = (body: { fields: { path: string }[] }) => Object.fromEntries(body.fields.map((f) => [f.path, f]))

  let res = await get(ALICE)
  t.equal(res.statusCode, 200, res.body)
  let f = fieldsOf(res.json())
  t.same(f['portal.brand_name'], { path: 'portal.brand_name', value: 'System Desk', source: 'system' })
  t.same(f['portal.primary_color'], { path: 'portal.primary_color', value: '#4299e1', source: 'default' })
  t.same(f['portal.widget.prechat'], { path: 'portal.widget.prechat', value: 'name', source: 'runtime' })
  t.same(f['portal.logo_url'], { path: 'portal.logo_url', value: null, source: 'default' }, 'unset: null')
  t.same(f['session_risk.a'], { path: 'session_risk.a', value: 'acme-value', source: 'workspace' }, "identity's")
  t.equal(res.json().fields.filter((x: { path: string }) => x.path === 'portal.brand_name').length, 1)
  t.match(f['portal.brand_name'], { value: 'System Desk' }, 'an owner never answers for a section it does not own')
  t.same(identity.asked.at(-1), { tenant_id: 'acme', workspace_id: 'support', principal: true }, "the caller's scope")
  t.same(
    res.json().unavailable.map((u: { section: string; code: string }) => [u.section, u.code]),
    [
      ['llm', 'CONFIG_OWNER_REFUSED'],
      ['knowledge_provider', 'CONFIG_OWNER_REFUSED'],
    ],
    "ai-orchestrator's refusal: its sections unavailable, not guessed",
  )
  t.notOk(f['llm.a'], 'no field of an owner that refused')
  t.same(f['session_risk.key'], { path: 'session_risk.key', value: null, source: 'system', secret: true, set: true })
  t.notOk(res.body.includes('sk-leaked'), 'a key an owner sent is never passed on')

  const put = async (who: typeof ALICE, kind: string, portal: object) => {
    const r = await app.inject({
      method: 'PUT',
      url: `/api/security/config/${kind}`,
      headers: await as(who),
      payload: { portal, change_ref: `E-${kind}`, reason: 'effective' },
    })
    t.equal(r.statusCode, 200, r.body)
  }
  await put(TENANT_ALICE, 'tenant', { brand_name: 'Acme', secondary_color: '#111111' })
  await put(ALICE, 'workspace', { brand_name: 'Acme Support' })
  f = fieldsOf((await get(ALICE)).json())
  t.match(f['portal.brand_name'], { value: 'Acme Support', source: 'workspace' }, 'workspace over tenant')
  t.match(f['portal.secondary_color'], { value: '#111111', source: 'tenant' }, 'tenant over system')
  res = await get(ALICE, 'tenant')
  t.equal(res.statusCode, 200)
  t.equal(res.json().workspace_id, undefined, "the tenant's own scope")
  t.match(fieldsOf(res.json())['portal.brand_name'], { value: 'Acme', source: 'tenant' })
  t.same(identity.asked.at(-1), { tenant_id: 'acme', workspace_id: '', principal: true })

  // another tenant's administrator: its own scope only, none of acme's values
  res = await get(GLOBEX_ADMIN)
  t.equal(res.statusCode, 200)
  f = fieldsOf(res.json())
  t.match(f['portal.brand_name'], { value: 'System Desk', source: 'system' }, "acme's overrides are not globex's")
  t.match(f['session_risk.a'], { value: 'globex-value' })
  t.same(identity.asked.at(-1), { tenant_id: 'globex', workspace_id: 'support', principal: true })
  t.notOk(res.body.includes('Acme'), 'no acme value in globex answer')

  const noScope = await app.inject({
    method: 'GET',
    url: '/api/security/config/workspace/effective',
    headers: await as(testPrincipal({ user_id: 'root', tenant_id: '', workspace_id: '' }, ALICE)),
  })
  t.equal(noScope.statusCode, 400)
  t.equal(noScope.json().code, 'WORKSPACE_SCOPE_REQUIRED')
})

inEachStorageMode(t, 'without UPSTREAM_* the owned sections are unavailable, the portal answers', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const res = await app.inject({
    method: 'GET',
    url: '/api/security/config/workspace/effective',
    headers: await as(ALICE),
  })
  t.equal(res.statusCode, 200, res.body)
  t.ok(res.json().fields.every((f: { path: string }) => f.path.startsWith('portal.')))
  t.same(
    res
      .json()
      .unavailable.map((u: { section: string; service: string; code: string }) => [u.section, u.service, u.code]),
    [
      ['llm', 'ai-orchestrator', 'CONFIG_OWNER_NOT_CONNECTED'],
      ['knowledge_provider', 'ai-orchestrator', 'CONFIG_OWNER_NOT_CONNECTED'],
      ['session_risk', 'identity', 'CONFIG_OWNER_NOT_CONNECTED'],
    ],
  )
})
