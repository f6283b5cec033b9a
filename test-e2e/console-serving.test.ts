// The gateway serves the agent console's real build at / in both run modes, beside an unchanged API.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONSOLE_CSP } from '@switchboard/gateway/routes/console.routes.ts'
import { ensureConsoleBuild, firstLoad } from './harness/console-build.ts'
import { client } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

const dist = await ensureConsoleBuild()
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

inEachMode('the agent console at /', {}, async (t, system) => {
  const api = client(system.url)
  const index = readFileSync(join(dist, 'index.html'), 'utf8')

  t.test('/ and client routes answer the build’s index.html with the console’s headers', async (t) => {
    for (const path of ['/', '/inbox', '/tickets/t-1']) {
      const res = await api.get(path, { headers: HTML })
      t.equal(res.status, 200, path)
      t.equal(res.text, index, `${path} is the console`)
      t.equal(res.headers.get('cache-control'), 'no-cache')
      t.equal(res.headers.get('content-security-policy'), CONSOLE_CSP)
      t.equal(res.headers.get('x-frame-options'), 'DENY')
      t.equal(res.headers.get('x-content-type-options'), 'nosniff')
      t.equal(res.headers.get('referrer-policy'), 'no-referrer')
    }
  })

  t.test('the first load’s assets are served immutable; a missing one is 404', async (t) => {
    for (const f of firstLoad(dist).filter((x) => x.url.startsWith('/assets/'))) {
      const res = await fetch(new URL(f.url, system.url), { headers: { 'accept-encoding': 'identity' } })
      t.equal(res.status, 200, f.url)
      t.equal(Number(res.headers.get('content-length')), f.raw)
      t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      await res.arrayBuffer()
      // a browser's Accept-Encoding gets the build's brotli file (apps/console/scripts/precompress.ts; a build
      // made by Vite alone has none and is sent as it is)
      const br = await fetch(new URL(f.url, system.url), { headers: { 'accept-encoding': 'gzip, deflate, br' } })
      const precompressed = existsSync(join(dist, `${f.url}.br`))
      t.equal(br.headers.get('content-encoding'), precompressed ? 'br' : null, `${f.url}: brotli when built`)
      t.equal((await br.arrayBuffer()).byteLength, f.raw, 'decoding to the file')
    }
    t.equal((await api.get('/assets/nothing-0000.js', { headers: HTML })).status, 404)
  })

  t.test('the API keeps its answers and policies', async (t) => {
    const res = await api.get('/api/tickets', { headers: HTML })
    t.equal(res.status, 401, 'no token, no API')
    t.equal(res.headers.get('content-security-policy'), null)
    t.equal((await api.get('/health')).status, 200)
  })
})
