import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { identityApp, PASSWORD } from '../helpers/app.ts'
import { callers, createCustomer, login } from '../helpers/directory.ts'

// The adapter itself is tested against real providers in test/ip-intel; this proves the wiring from
// configuration to the session views (storage plays no part, so SQLite only).
t.test('session views take labels from the configured provider, and the heuristic when it fails', async (t) => {
  const seen: { url: string; key: string | undefined }[] = []
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', key: req.headers['x-intel-key'] as string | undefined })
    if (req.url?.includes('1.1.1.1')) {
      res.writeHead(500).end('down')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ data: { network_label: 'hosting', location_label: 'NL-AMS' } }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => server.close(() => r())))
  const { port } = server.address() as AddressInfo

  const { app } = await identityApp(t, 'sqlite', {
    SESSION_IP_INTELLIGENCE_ENABLED: 'true',
    SESSION_IP_INTELLIGENCE_BASE_URL: `http://127.0.0.1:${port}/ip/{ip}`,
    SESSION_IP_INTELLIGENCE_API_KEY: 'intel-key',
    SESSION_IP_INTELLIGENCE_AUTH_HEADER: 'X-Intel-Key',
    SESSION_IP_INTELLIGENCE_TIMEOUT_MS: '500',
  })
  const who = await callers()
  const u = await createCustomer(app, who.acmeAdmin, {
    name: 'N',
    email: 'n@acme.test',
    username: 'nina',
    password: PASSWORD,
  })
  await login(app, 'nina', 'a', '8.8.8.8')
  await login(app, 'nina', 'b', '1.1.1.1')
  await login(app, 'nina', 'c', '10.1.1.1')
  const res = await app.inject({ url: `/api/security/users/${u.user_id}/sessions`, headers: who.acmeAdmin })
  t.equal(res.statusCode, 200, 'a failing provider fails nothing')
  const byFingerprint = new Map(res.json().items.map((v: any) => [v.device_fingerprint, v]))
  t.match(byFingerprint.get('a'), { network_label: 'hosting', location_label: 'NL-AMS' }, 'provider answer')
  t.match(byFingerprint.get('b'), { network_label: 'public', location_label: 'public_unknown' }, 'heuristic on 500')
  t.match(byFingerprint.get('c'), { network_label: 'private', location_label: 'private' }, 'private: never asked')
  t.notOk(
    seen.some((s) => s.url.includes('10.1.1.1')),
    'private address not sent out',
  )
  t.ok(seen.length >= 2)
  t.ok(
    seen.every((s) => s.key === 'intel-key'),
    'key in the configured header',
  )
  t.equal(seen.find((s) => s.url.includes('8.8.8.8'))?.url, '/ip/8.8.8.8')
})
