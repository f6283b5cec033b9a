import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import t, { type Test } from 'tap'
import { loadConfig } from '../src/config.ts'
import { CONSOLE_CSP } from '../src/routes/console.routes.ts'
import { harness } from './fixtures/gateway.ts'

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head></html>'

/** A build as Vite lays it out: index.html, hashed assets, a public file; and a secret beside it. */
function fakeBuild() {
  const base = mkdtempSync(join(tmpdir(), 'console-'))
  const dir = join(base, 'dist')
  mkdirSync(join(dir, 'assets'), { recursive: true })
  writeFileSync(join(dir, 'index.html'), INDEX)
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("console")')
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(join(dir, '.env'), 'SECRET=1')
  writeFileSync(join(base, 'secret.txt'), 'outside the build')
  return { base, dir }
}

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

function securityHeaders(t: Test, headers: Record<string, unknown>) {
  t.equal(headers['content-security-policy'], CONSOLE_CSP, 'strict CSP')
  t.notMatch(String(headers['content-security-policy']), /unsafe-inline|unsafe-eval/, 'no inline script or eval')
  t.equal(headers['x-frame-options'], 'DENY')
  t.equal(headers['x-content-type-options'], 'nosniff')
  t.equal(headers['referrer-policy'], 'no-referrer')
}

t.test('CONSOLE_DIR configures the directory; the default is the repository’s apps/console/dist', async (t) => {
  const base = { JWT_SECRET: 'x'.repeat(32), INTERNAL_SECRET: 'y'.repeat(32) }
  t.match(loadConfig(base).console_dir, /apps[/\\]console[/\\]dist$/)
  t.equal(loadConfig({ ...base, CONSOLE_DIR: '/srv/console' }).console_dir, '/srv/console')
})

t.test('the console at /: index.html revalidated, hashed assets immutable, security headers', async (t) => {
  const { base, dir } = fakeBuild()
  t.teardown(() => rmSync(base, { recursive: true, force: true }))
  const h = await harness(t, { env: { CONSOLE_DIR: dir } })

  const root = await h.app.inject({ url: '/', headers: HTML })
  t.equal(root.statusCode, 200)
  t.match(root.headers['content-type'], /^text\/html/)
  t.equal(root.headers['cache-control'], 'no-cache')
  t.equal(root.body, INDEX)
  securityHeaders(t, root.headers)

  const asset = await h.app.inject({ url: '/assets/index-abc123.js' })
  t.equal(asset.statusCode, 200)
  t.match(asset.headers['content-type'], /javascript/)
  t.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
  securityHeaders(t, asset.headers)

  const icon = await h.app.inject({ url: '/favicon.svg' })
  t.equal(icon.statusCode, 200)
  t.equal(icon.headers['cache-control'], 'public, max-age=0, must-revalidate', 'an unhashed file is revalidated')

  const head = await h.app.inject({ method: 'HEAD', url: '/' })
  t.equal(head.statusCode, 200, 'HEAD /')
  t.equal(head.body, '')
  t.equal(head.headers['cache-control'], 'no-cache')
  const headAsset = await h.app.inject({ method: 'HEAD', url: '/assets/index-abc123.js' })
  t.equal(headAsset.statusCode, 200, 'HEAD of an asset')
  t.equal(headAsset.headers['content-length'], '22')

  const etag = root.headers.etag as string
  t.ok(etag, 'an ETag to revalidate with')
  const again = await h.app.inject({ url: '/', headers: { ...HTML, 'if-none-match': etag } })
  t.equal(again.statusCode, 304, 'an unchanged index.html is not sent again')
})

t.test('the single-page app’s routes answer index.html; files, API and gateway routes do not', async (t) => {
  const { base, dir } = fakeBuild()
  t.teardown(() => rmSync(base, { recursive: true, force: true }))
  const h = await harness(t, { env: { CONSOLE_DIR: dir } })

  for (const url of ['/inbox', '/apiary', '/conversations/c-1', '/tickets/t-9?tab=sla', '/settings/']) {
    const res = await h.app.inject({ url, headers: HTML })
    t.equal(res.statusCode, 200, `${url} is a client route`)
    t.equal(res.body, INDEX)
    t.equal(res.headers['cache-control'], 'no-cache')
  }
  const json = await h.app.inject({ url: '/inbox', headers: { accept: 'application/json' } })
  t.equal(json.statusCode, 404, 'a client route asked without text/html is not the app')

  const missing = await h.app.inject({ url: '/assets/index-gone99.js', headers: HTML })
  t.equal(missing.statusCode, 404, 'a missing asset is 404, not index.html')
  t.equal(missing.json().code, 'ROUTE_NOT_FOUND')
  t.equal((await h.app.inject({ url: '/logo.png', headers: HTML })).statusCode, 404)

  // the API and the gateway's own paths keep their answers: the upstream's, the router's 404, health, docs
  const anon = await h.app.inject({ url: '/public/kb/articles', headers: HTML })
  t.equal(anon.json().url, '/public/kb/articles', '/public is proxied as before')
  // the server-rendered public pages win over the console's fallback: their owners answer them
  for (const url of ['/help/acme/support', '/help/acme/support/articles/x-y', '/csat/tok', '/csat/tok?rating=4']) {
    const res = await h.app.inject({ url, headers: HTML })
    t.equal(res.json().url, url, `${url} is proxied to its owner, not the console`)
  }
  for (const url of ['/help', '/csat']) {
    t.not((await h.app.inject({ url, headers: HTML })).body, INDEX, `${url} is never the console`)
  }
  const unauth = await h.app.inject({ url: '/api/tickets', headers: HTML })
  t.equal(unauth.statusCode, 401, '/api keeps its policies')
  t.notOk(unauth.headers['content-security-policy'], 'API answers are not the console’s')
  for (const url of ['/api', '/api/', '/api/nothing-here', '/health/x', '/metrics/x', '/docs/x.html']) {
    const res = await h.app.inject({ url, headers: HTML })
    t.not(res.body, INDEX, `${url} is never the console`)
  }
  t.equal((await h.app.inject({ url: '/api', headers: HTML })).statusCode, 404)
  t.equal((await h.app.inject({ url: '/health' })).statusCode, 200)
  t.equal((await h.app.inject({ url: '/uploads', headers: HTML })).headers['content-security-policy'], undefined)
})

t.test('no path leaves the build directory, and dotfiles are not served', async (t) => {
  const { base, dir } = fakeBuild()
  t.teardown(() => rmSync(base, { recursive: true, force: true }))
  const h = await harness(t, { env: { CONSOLE_DIR: dir } })
  for (const url of [
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/assets//index-abc123.js/../../../secret.txt',
    '/.env',
    '/assets/%2e%2e/.env',
  ]) {
    const res = await h.app.inject({ url, headers: HTML })
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `${url} → ${res.statusCode}`)
    t.notMatch(res.body, /outside the build|SECRET=1/, `${url} reads nothing outside or hidden`)
  }
})

t.test('without a build, / answers 503 saying how to build; the API is unaffected', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'console-'))
  t.teardown(() => rmSync(base, { recursive: true, force: true }))
  const h = await harness(t, { env: { CONSOLE_DIR: join(base, 'no-such-dist') } })
  for (const url of ['/', '/inbox']) {
    const res = await h.app.inject({ url, headers: HTML })
    t.equal(res.statusCode, 503, `${url} says the console is not built`)
    t.match(res.body, /not built/)
    t.match(res.body, /turbo run build/)
    t.match(res.body, /no-such-dist/)
    t.equal(res.headers['cache-control'], 'no-store')
    securityHeaders(t, res.headers)
  }
  t.equal((await h.app.inject({ url: '/assets/x-1.js' })).statusCode, 404)
  t.equal((await h.app.inject({ url: '/health' })).statusCode, 200, 'the gateway runs')

  // built later: served at once, no restart
  mkdirSync(join(base, 'no-such-dist'))
  writeFileSync(join(base, 'no-such-dist', 'index.html'), INDEX)
  const built = await h.app.inject({ url: '/', headers: HTML })
  t.equal(built.statusCode, 200)
  t.equal(built.body, INDEX)
})

t.test('a browser accepting br or gzip gets the build’s precompressed files; others the file itself', async (t) => {
  const { base, dir } = fakeBuild()
  const js = 'console.log("console")'.repeat(50)
  writeFileSync(join(dir, 'assets', 'app-def456.js'), js)
  writeFileSync(join(dir, 'assets', 'app-def456.js.br'), brotliCompressSync(js))
  writeFileSync(join(dir, 'assets', 'app-def456.js.gz'), gzipSync(js))
  writeFileSync(join(dir, 'index.html.gz'), gzipSync(INDEX))
  t.teardown(() => rmSync(base, { recursive: true, force: true }))
  const h = await harness(t, { env: { CONSOLE_DIR: dir } })
  const get = (url: string, encoding?: string) =>
    h.app.inject({ url, headers: { ...HTML, ...(encoding ? { 'accept-encoding': encoding } : {}) } })

  const br = await get('/assets/app-def456.js', 'gzip, deflate, br')
  t.equal(br.headers['content-encoding'], 'br')
  t.match(br.headers['content-type'], /javascript/)
  t.match(br.headers.vary, /accept-encoding/i)
  t.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable')
  t.equal(brotliDecompressSync(br.rawPayload).toString(), js)
  const gz = await get('/assets/app-def456.js', 'gzip')
  t.equal(gz.headers['content-encoding'], 'gzip')
  t.equal(gunzipSync(gz.rawPayload).toString(), js)
  const plain = await get('/assets/app-def456.js')
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: the file itself')
  t.equal(plain.body, js)
  t.match(plain.headers.vary, /accept-encoding/i, 'a shared cache keeps the variants apart')

  const index = await get('/inbox', 'br, gzip')
  t.equal(index.headers['content-encoding'], 'gzip', 'index.html: the variant there is (no .br)')
  t.equal(gunzipSync(index.rawPayload).toString(), INDEX)
  t.equal(index.headers['cache-control'], 'no-cache')
  t.equal(index.headers['content-security-policy'], CONSOLE_CSP)
  const noVariant = await get('/assets/index-abc123.js', 'br, gzip')
  t.equal(noVariant.headers['content-encoding'], undefined, 'a file without variants is sent as it is')
  t.equal(noVariant.body, 'console.log("console")')
})
