import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import t, { type Test } from 'tap'
import { loadConfig } from '../src/config.ts'
import { harness } from './fixtures/gateway.ts'

const FRAME = '<!doctype html><html><head><script type="module" src="./assets/index-abc123.js"></script></head></html>'
const LOADER = '(()=>{console.log("loader")})();'

/** A widget build as apps/widget lays it out: widget.js, frame/index.html, frame/assets/*. */
function fakeBuild(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'widget-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'frame', 'assets'), { recursive: true })
  writeFileSync(join(dir, 'widget.js'), LOADER)
  writeFileSync(join(dir, 'frame', 'index.html'), FRAME)
  writeFileSync(join(dir, 'frame', 'assets', 'index-abc123.js'), 'console.log("frame")')
  return dir
}

/**
 * config-governance's public portal endpoint as the test sets it: per scope a `widget` section (or none, as before
 * widget-api added it), a status to answer with, and the calls it received.
 */
async function fakeGovernance(t: Test) {
  const scopes = new Map<string, { allowed_origins: string[] } | undefined>()
  const state = { status: 200, calls: [] as string[] }
  const app = Fastify()
  app.get('/ready', async () => ({ status: 'ready' }))
  app.get('/public/portal/config', async (request, reply) => {
    const q = request.query as { tenant_id: string; workspace_id: string }
    state.calls.push(`${q.tenant_id}/${q.workspace_id}`)
    if (state.status !== 200) return reply.code(state.status).send({ error: { code: 'X', message: 'x' } })
    const widget = scopes.get(`${q.tenant_id}/${q.workspace_id}`)
    return { brand_name: 'Switchboard', primary_color: '#4299e1', ...(widget ? { widget } : {}) }
  })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  t.teardown(() => app.close())
  return { url, scopes, state }
}

async function setup(t: Test, env: Record<string, string> = {}) {
  const dir = fakeBuild(t)
  const gov = await fakeGovernance(t)
  const h = await harness(t, { env: { WIDGET_DIR: dir, UPSTREAM_CONFIG_GOVERNANCE: gov.url, ...env } })
  return { ...h, gov, dir }
}

const csp = (headers: Record<string, unknown>) => String(headers['content-security-policy'])
const ancestors = (headers: Record<string, unknown>) => /frame-ancestors ([^;]*)/.exec(csp(headers))?.[1]

t.test('config: WIDGET_DIR (default the repository’s apps/widget/dist), DEMO_SITE off unless set', async (t) => {
  const base = { JWT_SECRET: 'x'.repeat(32), INTERNAL_SECRET: 'y'.repeat(32) }
  const c = loadConfig(base)
  t.match(c.widget_dir, /apps[/\\]widget[/\\]dist$/)
  t.same(c.demo_site, { enabled: false, tenant_id: 'demo', workspace_id: 'main' })
  t.equal(c.widget_policy_cache_ms, 5000)
  const d = loadConfig({ ...base, WIDGET_DIR: '/srv/w', DEMO_SITE: 'true', DEMO_TENANT_ID: 'acme' })
  t.equal(d.widget_dir, '/srv/w')
  t.same(d.demo_site, { enabled: true, tenant_id: 'acme', workspace_id: 'main' })
})

t.test('/widget.js: the loader, cached 5 minutes, loadable from any site', async (t) => {
  const h = await setup(t)
  const res = await h.app.inject({ url: '/widget.js' })
  t.equal(res.statusCode, 200)
  t.equal(res.body, LOADER)
  t.match(res.headers['content-type'], /javascript/)
  t.equal(res.headers['cache-control'], 'public, max-age=300')
  t.equal(res.headers['cross-origin-resource-policy'], 'cross-origin')
  t.equal(res.headers['x-content-type-options'], 'nosniff')
})

t.test('/widget/: frame-ancestors follows the scope’s widget.allowed_origins; no X-Frame-Options', async (t) => {
  const h = await setup(t, { WIDGET_POLICY_CACHE_MS: '0' })
  h.gov.scopes.set('t1/w1', { allowed_origins: ['https://shop.example', 'http://127.0.0.1:5173'] })

  const listed = await h.app.inject({ url: '/widget/?tenant_id=t1&workspace_id=w1&embed_origin=x' })
  t.equal(listed.statusCode, 200)
  t.equal(listed.body, FRAME)
  t.equal(ancestors(listed.headers), 'https://shop.example http://127.0.0.1:5173')
  t.equal(listed.headers['x-frame-options'], undefined, 'X-Frame-Options would forbid every embedding')
  t.equal(listed.headers['cache-control'], 'no-cache')
  t.match(csp(listed.headers), /script-src 'self'; style-src 'self'/)
  t.notMatch(csp(listed.headers), /unsafe-inline|unsafe-eval/)

  h.gov.scopes.set('t1/w1', { allowed_origins: [] })
  const empty = await h.app.inject({ url: '/widget/?tenant_id=t1&workspace_id=w1' })
  t.equal(ancestors(empty.headers), '*', 'an empty list: any site (development)')

  const none = await h.app.inject({ url: '/widget/?tenant_id=t2&workspace_id=w2' })
  t.equal(none.statusCode, 200)
  t.equal(ancestors(none.headers), '*', 'no widget section: any site')

  const index = await h.app.inject({ url: '/widget/index.html?tenant_id=t1&workspace_id=w1' })
  t.equal(ancestors(index.headers), '*', 'index.html by name gets the same policy')

  h.gov.scopes.set('t1/w1', { allowed_origins: ['https://a.example', 'https://b.example; script-src *'] })
  const injected = await h.app.inject({ url: '/widget/?tenant_id=t1&workspace_id=w1' })
  t.equal(ancestors(injected.headers), 'https://a.example', 'a value that is not one origin never reaches the header')

  // the frame's script reads the first of repeated names (URLSearchParams), so the policy is that scope's
  h.gov.scopes.set('t1/w1', { allowed_origins: ['https://shop.example'] })
  const repeated = await h.app.inject({ url: '/widget/?tenant_id=t1&tenant_id=t2&workspace_id=w1&workspace_id=w2' })
  t.equal(ancestors(repeated.headers), 'https://shop.example')
  t.equal(h.gov.state.calls.at(-1), 't1/w1')

  const redirect = await h.app.inject({ url: '/widget?tenant_id=t1&workspace_id=w1' })
  t.equal(redirect.statusCode, 301)
  t.equal(redirect.headers.location, '/widget/?tenant_id=t1&workspace_id=w1')
})

t.test('a scope’s list is kept for WIDGET_POLICY_CACHE_MS: one call per scope, not one per frame', async (t) => {
  const h = await setup(t, { WIDGET_POLICY_CACHE_MS: '60000' })
  h.gov.scopes.set('t1/w1', { allowed_origins: ['https://shop.example'] })
  const urls = Array.from({ length: 5 }, () => '/widget/?tenant_id=t1&workspace_id=w1')
  const answers = await Promise.all(urls.map((url) => h.app.inject({ url })))
  t.same(
    answers.map((a) => ancestors(a.headers)),
    Array(5).fill('https://shop.example'),
  )
  h.gov.scopes.set('t1/w1', { allowed_origins: ['https://changed.example'] })
  const later = await h.app.inject({ url: '/widget/?tenant_id=t1&workspace_id=w1' })
  t.equal(ancestors(later.headers), 'https://shop.example', 'still the kept answer')
  t.same(h.gov.state.calls, ['t1/w1'], 'config-governance asked once')
})

t.test('config-governance refusing the scope → 400; not answering → 503; both framed by nobody', async (t) => {
  const h = await setup(t, { WIDGET_POLICY_CACHE_MS: '0' })
  h.gov.state.status = 400
  const bad = await h.app.inject({ url: '/widget/?tenant_id=t1&workspace_id=w1' })
  t.equal(bad.statusCode, 400)
  t.equal(ancestors(bad.headers), "'none'")
  h.gov.state.status = 500
  const down = await h.app.inject({ url: '/widget/?tenant_id=t1&workspace_id=w1' })
  t.equal(down.statusCode, 503)
  t.equal(ancestors(down.headers), "'none'")
  t.equal(down.headers['cache-control'], 'no-store')
})

t.test('frame assets: hashed files immutable, a missing one 404, nothing outside the build', async (t) => {
  const h = await setup(t)
  const asset = await h.app.inject({ url: '/widget/assets/index-abc123.js' })
  t.equal(asset.statusCode, 200)
  t.equal(asset.body, 'console.log("frame")')
  t.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
  t.equal((await h.app.inject({ url: '/widget/assets/missing.js' })).statusCode, 404)
  t.not((await h.app.inject({ url: '/widget/..%2f..%2fetc%2fpasswd' })).statusCode, 200)
})

t.test('without a build: /widget.js and /widget/ say how to build it (503)', async (t) => {
  const gov = await fakeGovernance(t)
  const empty = mkdtempSync(join(tmpdir(), 'widget-empty-'))
  t.teardown(() => rmSync(empty, { recursive: true, force: true }))
  const h = await harness(t, { env: { WIDGET_DIR: empty, UPSTREAM_CONFIG_GOVERNANCE: gov.url } })
  const js = await h.app.inject({ url: '/widget.js' })
  t.equal(js.statusCode, 503)
  t.match(js.body, /turbo run build --filter=@switchboard\/widget/)
  const frame = await h.app.inject({ url: '/widget/?tenant_id=t&workspace_id=w' })
  t.equal(frame.statusCode, 503)
})

t.test('/demo: off by default; with DEMO_SITE the demo shop embedding the loader for the demo scope', async (t) => {
  const off = await setup(t)
  t.equal((await off.app.inject({ url: '/demo', headers: { accept: 'text/html' } })).statusCode, 404)

  const on = await setup(t, { DEMO_SITE: 'true', DEMO_TENANT_ID: 'acme"><script>' })
  const page = await on.app.inject({ url: '/demo' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.match(
    page.body,
    /<script src="\/widget\.js" data-tenant="acme&#34;&#62;&#60;script&#62;" data-workspace="main" async>/,
  )
  t.notMatch(page.body, /acme"><script>/, 'the scope is escaped')
  // the page's one inline sheet is allowed by its hash, and nothing inline beyond it
  const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)![1]!
  const hash = createHash('sha256').update(style).digest('base64')
  t.match(csp(page.headers), `style-src 'sha256-${hash}'`)
  t.match(csp(page.headers), /script-src 'self'/)
})
