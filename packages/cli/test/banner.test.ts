import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { loginBanner } from '../src/banner.ts'
import { consoleStatus, demoServed } from '../src/console-status.ts'
import type { DemoSeed } from '../src/seed.ts'

const URL = 'http://127.0.0.1:8080'
const seeded: DemoSeed = {
  tenant_id: 'demo',
  workspace_id: 'main',
  admin: { username: 'admin', password: 'pw-admin', created: true, stored_in: '/d/.secrets/admin_password' },
  agent: { username: 'agent', password: 'pw-agent', created: true },
} as DemoSeed

const firstLine = (banner: string) => banner.split('\n').find((l) => l.trim() !== '')

t.test('the banner starts with the console’s address and the admin’s login', async (t) => {
  const banner = loginBanner({ mode: 'embedded', url: URL, seeded })
  t.equal(firstLine(banner), 'open http://127.0.0.1:8080/ and log in as admin / pw-admin')
  t.match(banner, /gateway: {3}http:\/\/127\.0\.0\.1:8080/, 'the API’s details follow')
  t.match(banner, /Log in to the API:\n {2}curl -s http:\/\/127\.0\.0\.1:8080\/api\/v1\/auth\/login/)
})

t.test('an admin whose password is not known, no seed, no build', async (t) => {
  const unknown = { ...seeded, admin: { ...seeded.admin, password: undefined } } as unknown as DemoSeed
  t.equal(
    firstLine(loginBanner({ mode: 'fleet', url: URL, seeded: unknown })),
    'open http://127.0.0.1:8080/ and log in as admin / <password> (not known here; set ADMIN_PASSWORD to reset it)',
  )
  t.equal(firstLine(loginBanner({ mode: 'fleet', url: URL, seeded: undefined })), `open ${URL}/ for the agent console`)
  const notBuilt = firstLine(loginBanner({ mode: 'embedded', url: URL, seeded, console: 'not built' }))
  t.match(notBuilt, /^The agent console is not built: run {2}npx turbo run build --filter=@switchboard\/console/)
})

t.test('consoleStatus asks the gateway: 200 ready, 503 not built, anything else unknown', async (t) => {
  let status = 200
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    res.writeHead(status).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t.equal(await consoleStatus(url), 'ready')
  status = 503
  t.equal(await consoleStatus(url), 'not built')
  status = 404
  t.equal(await consoleStatus(url), 'unknown')
  t.same(seen, ['HEAD /', 'HEAD /', 'HEAD /'])
  server.close()
  await new Promise((r) => server.once('close', r))
  t.equal(await consoleStatus(url), 'unknown', 'a gateway that does not answer')
})

t.test('the widget’s demo website is named beside the console when the gateway serves it', async (t) => {
  const lines = loginBanner({ mode: 'embedded', url: URL, seeded, demo: true })
    .split('\n')
    .filter((l) => l.trim() !== '')
  t.equal(lines[0], 'open http://127.0.0.1:8080/ and log in as admin / pw-admin', 'the console first')
  t.equal(lines[1], 'try the widget on http://127.0.0.1:8080/demo (as a customer; answer in the console)')
  t.notMatch(loginBanner({ mode: 'fleet', url: URL, seeded }), /\/demo/, 'not served: not named')

  let status = 200
  const server = createServer((req, res) => res.writeHead(req.url === '/demo' ? status : 500).end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t.equal(await demoServed(url), true)
  status = 404
  t.equal(await demoServed(url), false, 'DEMO_SITE off')
})
