// The gateway's Content-Security-Policy on the real console in Debian's Chromium: the console loads, logs in and
// connects its hub socket with no violation (connect-src 'self' covers the same-origin ws:), while a socket to
// another origin, an inline script and framing by another site are refused.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)

type Violation = { directive: string; blocked: string }

t.test('the console runs under its CSP: hub socket connected, no violation; other origins refused', async (t) => {
  const page = await newPage(t, browser, system)
  // an init script is not subject to the page's CSP: it only records what the policy refuses
  await page.addInitScript(() => {
    const g = globalThis as any
    g.__violations = [] as Violation[]
    g.document.addEventListener('securitypolicyviolation', (e: any) =>
      g.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }),
    )
  })
  const response = await page.goto('/')
  t.match(response?.headers()['content-security-policy'], /connect-src 'self'/)
  await loginAs(page, system.admin)
  t.same(await page.evaluate(() => (globalThis as any).__violations), [], 'login and the hub socket: nothing refused')

  // control: the same policy refuses a socket to another origin and an inline script
  await page.evaluate(() => {
    const g = globalThis as any
    new g.WebSocket(`ws://127.0.0.2:${g.location.port}/api/v1/ws`)
    const s = g.document.createElement('script')
    s.textContent = 'globalThis.__inlineRan = true'
    g.document.body.append(s)
  })
  await page.waitForFunction(() => (globalThis as any).__violations.length >= 2, null, { timeout: WAIT_MS })
  const violations: Violation[] = await page.evaluate(() => (globalThis as any).__violations)
  t.ok(
    violations.some((v) => v.directive === 'connect-src' && v.blocked.includes('127.0.0.2')),
    'another origin’s socket is refused',
  )
  t.ok(
    violations.some((v) => v.directive === 'script-src-elem' && v.blocked === 'inline'),
    'an inline script is refused',
  )
  t.equal(await page.evaluate(() => (globalThis as any).__inlineRan), undefined, 'and did not run')
})

t.test('another site cannot frame the console', async (t) => {
  const framer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(`<!doctype html><title>framer</title><iframe name="console" src="${system.url}/"></iframe>`)
  })
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve))
  t.teardown(() => framer.close())
  const page = await newPage(t, browser, system)
  const refused = page.waitForEvent('console', {
    predicate: (m) => /frame-ancestors|X-Frame-Options|Refused to (display|frame)/i.test(m.text()),
    timeout: WAIT_MS,
  })
  await page.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`)
  t.match((await refused).text(), /frame-ancestors|X-Frame-Options|Refused/i, 'Chromium refuses to frame it')
  const frame = page.frame({ name: 'console' })
  t.notOk(
    await frame
      ?.getByRole('button', { name: 'Log in' })
      .count()
      .catch(() => 0),
    'the login form is not shown in the frame',
  )
})
