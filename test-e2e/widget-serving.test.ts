// The widget as the gateway serves it (issue 21), end to end in both run modes: the loader, the frame whose
// frame-ancestors follows the scope's governed `widget.allowed_origins` (through config-governance, as a real
// request would), never X-Frame-Options on the frame while the console keeps DENY, and the demo website on in the
// embedded default and off in the fleet.
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { ensureWidgetBuild } from './harness/widget-build.ts'

const SHOP = 'https://shop.example'
const ancestors = (csp: string | null) => /frame-ancestors ([^;]*)/.exec(csp ?? '')?.[1]

await ensureWidgetBuild()

inEachMode('widget serving: loader, frame policy per scope, demo site', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit

  await t.test('/widget.js: the built loader, cached 5 minutes', async (t) => {
    const res = await fetch(`${system.url}/widget.js`)
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /javascript/)
    t.equal(res.headers.get('cache-control'), 'public, max-age=300')
    t.match(await res.text(), /switchboard:open/, 'the loader, speaking the contract')
  })

  await t.test('the frame: any site while the list is empty; only the listed ones once governed', async (t) => {
    const scope = kit.freshScope('wsv')
    const frame = `${system.url}/widget/?tenant_id=${scope.tenant_id}&workspace_id=${scope.workspace_id}`
    const before = await fetch(frame)
    t.equal(before.status, 200)
    t.match(await before.text(), /<div id="root">/, 'the chat app’s page')
    t.equal(ancestors(before.headers.get('content-security-policy')), '*')
    t.equal(before.headers.get('x-frame-options'), null, 'no X-Frame-Options on the frame')

    must(
      await api.put(
        '/api/security/config/workspace',
        { portal: { widget: { allowed_origins: [SHOP] } }, change_ref: 'WS-1', reason: 'embed on the shop' },
        kit.svc(scope),
      ),
      200,
      'allowed_origins',
    )
    // the gateway keeps a scope's list WIDGET_POLICY_CACHE_MS (5 s): the change shows within that
    const after = await until('frame-ancestors follows the list', async () => {
      const res = await fetch(frame)
      return ancestors(res.headers.get('content-security-policy')) === SHOP ? res : undefined
    })
    t.equal(after.status, 200)
    t.equal(after.headers.get('x-frame-options'), null)

    const console = await fetch(`${system.url}/`, { headers: { accept: 'text/html' } })
    t.equal(console.headers.get('x-frame-options'), 'DENY', 'the console is still framed by nobody')
    t.equal(ancestors(console.headers.get('content-security-policy')), "'none'")
  })

  await t.test(
    `/demo: ${system.mode === 'embedded' ? 'on in the embedded default' : 'off in the fleet'}`,
    async (t) => {
      const res = await fetch(`${system.url}/demo`, { headers: { accept: 'text/html' } })
      if (system.mode === 'embedded') {
        t.equal(res.status, 200)
        t.match(
          await res.text(),
          `<script src="/widget.js" data-tenant="${system.tenant_id}" data-workspace="${system.workspace_id}" async>`,
          'the loader embedded for the seeded scope',
        )
      } else t.equal(res.status, 404, 'DEMO_SITE is not set')
    },
  )
})
