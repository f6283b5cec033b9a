import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { ALICE, as, governanceApp, TENANT_ALICE } from '../helpers/app.ts'

type App = Awaited<ReturnType<typeof governanceApp>>['app']

const call = (app: App, headers: Record<string, string>, method: string, url: string, payload?: object) =>
  app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })

const HUB = testPrincipal({ user_id: 'realtime-voice', kind: 'service', roles: [], permissions: ['*'] })

inEachStorageMode(t, "the portal's widget section: validated, governed, layered, served", async (t, mode) => {
  const { app } = await governanceApp(t, mode, {
    PORTAL_WIDGET_ALLOWED_ORIGINS: 'https://system.example',
    PORTAL_WIDGET_GREETING: 'Hello from the system',
  })
  const alice = await as(ALICE)
  const tenantAlice = await as(TENANT_ALICE)
  const put = (headers: Record<string, string>, kind: string, widget: unknown, ref: string) =>
    call(app, headers, 'PUT', `/api/security/config/${kind}`, { portal: { widget }, change_ref: ref, reason: 'r' })
  const portal = async (q: string) => (await app.inject({ method: 'GET', url: `/public/portal/config${q}` })).json()

  const sys = await portal('')
  t.same(
    sys.widget,
    {
      allowed_origins: ['https://system.example'],
      prechat: 'off',
      greeting: 'Hello from the system',
      offline_message: null,
    },
    'the system layer from PORTAL_WIDGET_*',
  )

  for (const bad of [
    'https://shop.example/path',
    'https://shop.example/',
    'ftp://shop.example',
    'shop.example',
    'https://user:pw@shop.example',
    'https://shop.example:port',
    '*',
  ]) {
    const res = await put(alice, 'workspace', { allowed_origins: [bad] }, 'bad')
    t.equal(res.statusCode, 400, `${bad} refused`)
    t.match(res.json(), { code: 'VALIDATION_FAILED', message: /allowed_origins/ })
  }
  const dup = await put(alice, 'workspace', { allowed_origins: ['https://a.example', 'https://a.example'] }, 'dup')
  t.equal(dup.statusCode, 400, 'an origin listed twice')
  const prechat = await put(alice, 'workspace', { prechat: 'phone' }, 'pc')
  t.equal(prechat.statusCode, 400, 'prechat is off | name | name_email')
  const unknown = await put(alice, 'workspace', { colour: 'red' }, 'u')
  t.equal(unknown.statusCode, 400, 'an unknown widget field')

  const tenant = await put(tenantAlice, 'tenant', { prechat: 'name', offline_message: 'We are away' }, 'w1')
  t.equal(tenant.statusCode, 200, tenant.body)
  const ws = await put(
    alice,
    'workspace',
    { allowed_origins: ['https://shop.example', 'http://localhost:5173', 'https://[::1]:8443'], prechat: 'name_email' },
    'w2',
  )
  t.equal(ws.statusCode, 200, ws.body)
  t.match(ws.json(), {
    change_risk: { risk_level: 'medium', risk_reasons: ['portal_widget_change', 'scoped_config_change'] },
    governance_status: 'awaiting_verification',
  })
  t.ok(
    ws.json().verification_template.checks.some((c: { id: string }) => c.id === 'portal_widget_verified'),
    'a widget check to verify',
  )

  t.same((await portal('?tenant_id=acme&workspace_id=support')).widget, {
    allowed_origins: ['https://shop.example', 'http://localhost:5173', 'https://[::1]:8443'],
    prechat: 'name_email',
    greeting: 'Hello from the system',
    offline_message: 'We are away',
  })
  t.same((await portal('?tenant_id=acme&workspace_id=sales')).widget, {
    allowed_origins: ['https://system.example'],
    prechat: 'name',
    greeting: 'Hello from the system',
    offline_message: 'We are away',
  })

  await t.test('the embed policy for the hub: service principals only', async (t) => {
    const q = '/internal/widget/embed-policy?tenant_id=acme&workspace_id=support'
    const ok = await call(app, await as(HUB), 'GET', q)
    t.equal(ok.statusCode, 200, ok.body)
    t.same(ok.json(), {
      tenant_id: 'acme',
      workspace_id: 'support',
      allowed_origins: ['https://shop.example', 'http://localhost:5173', 'https://[::1]:8443'],
    })
    const other = await call(app, await as(HUB), 'GET', '/internal/widget/embed-policy?tenant_id=globex&workspace_id=x')
    t.same(other.json().allowed_origins, ['https://system.example'], 'a scope without overrides: the system list')
    const byAdmin = await call(app, alice, 'GET', q)
    t.equal(byAdmin.statusCode, 403)
    t.equal(byAdmin.json().code, 'CONFIG_SERVICE_ONLY')
    const anonymous = await app.inject({ method: 'GET', url: q })
    t.equal(anonymous.statusCode, 401)
    const noScope = await call(app, await as(HUB), 'GET', '/internal/widget/embed-policy?tenant_id=acme')
    t.equal(noScope.statusCode, 400)
  })
})
