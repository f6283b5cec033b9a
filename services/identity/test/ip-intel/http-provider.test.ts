import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { createIpIntel, lookupAll, readProviderAnswer } from '../../src/ip-intel/index.ts'

interface Seen {
  url: string
  headers: IncomingMessage['headers']
}

/** A real provider on loopback that answers with `handler`; records every request it saw. */
async function provider(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers })
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  const { port } = server.address() as AddressInfo
  return { base: `http://127.0.0.1:${port}`, seen }
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

t.test('a good provider: top-level labels, key header, {ip} URL-encoded', async (t) => {
  const p = await provider(t, (_req, res) => json(res, 200, { network_label: 'public', location_label: 'DE-BE' }))
  const intel = createIpIntel({
    enabled: true,
    base_url: `${p.base}/lookup/{ip}?full=1`,
    api_key: 'k-123',
    auth_header: 'X-Api-Key',
    timeout_ms: 1000,
  })
  t.same(await intel.lookup('2606:4700::1111'), { network_label: 'public', location_label: 'DE-BE' })
  t.equal(p.seen.length, 1)
  t.equal(p.seen[0]?.url, `/lookup/${encodeURIComponent('2606:4700::1111')}?full=1`)
  t.equal(p.seen[0]?.headers['x-api-key'], 'k-123')
})

t.test('labels nested under data; Authorization by default carries a Bearer key', async (t) => {
  const p = await provider(t, (_req, res) =>
    json(res, 200, { data: { network_label: 'hosting', location_label: 'US-CA' } }),
  )
  const intel = createIpIntel({ enabled: true, base_url: `${p.base}/{ip}`, api_key: 'secret-key', timeout_ms: 1000 })
  t.same(await intel.lookup('8.8.8.8'), { network_label: 'hosting', location_label: 'US-CA' })
  t.equal(p.seen[0]?.headers.authorization, 'Bearer secret-key')
})

t.test('a partial answer keeps the heuristic for the other label', async (t) => {
  const p = await provider(t, (_req, res) => json(res, 200, { data: { location_label: 'NL' } }))
  const intel = createIpIntel({ enabled: true, base_url: `${p.base}/{ip}`, api_key: '', timeout_ms: 1000 })
  t.same(await intel.lookup('8.8.8.8'), { network_label: 'public', location_label: 'NL' })
  t.equal(p.seen[0]?.headers.authorization, undefined, 'no key, no header')
})

t.test('answers are cached; concurrent lookups of one address ask once', async (t) => {
  const p = await provider(t, (_req, res) => json(res, 200, { network_label: 'public', location_label: 'FR' }))
  const intel = createIpIntel({ enabled: true, base_url: `${p.base}/{ip}`, api_key: 'k', timeout_ms: 1000 })
  const labels = await lookupAll(intel, ['8.8.8.8', '8.8.8.8', '1.1.1.1'])
  await intel.lookup('8.8.8.8')
  t.equal(labels.get('8.8.8.8')?.location_label, 'FR')
  t.equal(p.seen.length, 2, 'one request per distinct address')
})

t.test('only public addresses leave the process', async (t) => {
  const p = await provider(t, (_req, res) => json(res, 200, { network_label: 'x', location_label: 'y' }))
  const intel = createIpIntel({ enabled: true, base_url: `${p.base}/{ip}`, api_key: 'k', timeout_ms: 1000 })
  t.same(await intel.lookup('10.0.0.1'), { network_label: 'private', location_label: 'private' })
  t.same(await intel.lookup('127.0.0.1'), { network_label: 'loopback', location_label: 'loopback' })
  t.same(await intel.lookup('garbage'), { network_label: 'unknown', location_label: 'unknown' })
  t.equal(p.seen.length, 0)
})

t.test('failures fall back to the heuristic and never throw', async (t) => {
  const slow = await provider(t, (_req, res) => {
    setTimeout(() => json(res, 200, { network_label: 'late', location_label: 'late' }), 400).unref()
  })
  const failing = await provider(t, (_req, res) => json(res, 500, { error: 'boom' }))
  const badJson = await provider(t, (_req, res) => json(res, 200, '{"network_label": '))
  const noLabels = await provider(t, (_req, res) => json(res, 200, { country: 'DE' }))
  const warnings: string[] = []
  const logger = { warn: (_o: object, msg: string) => warnings.push(msg) }
  for (const [name, base, timeout] of [
    ['slow', slow.base, 100],
    ['500', failing.base, 1000],
    ['bad json', badJson.base, 1000],
    ['no labels', noLabels.base, 1000],
    ['refused', 'http://127.0.0.1:1', 1000],
  ] as const) {
    const intel = createIpIntel({ enabled: true, base_url: `${base}/{ip}`, api_key: 'k', timeout_ms: timeout }, logger)
    const started = Date.now()
    t.same(
      await intel.lookup('203.0.113.9'),
      { network_label: 'public', location_label: 'documentation' },
      `${name}: heuristic answer`,
    )
    if (name === 'slow') t.ok(Date.now() - started < 380, 'slow provider cut off at timeout_ms')
  }
  t.equal(warnings.length, 5, 'each failure logged')
  t.equal(failing.seen.length, 1)
  t.equal(slow.seen[0]?.headers.authorization, 'Bearer k', 'key sent to the slow provider too')
})

t.test('disabled provider means heuristic only', async (t) => {
  const intel = createIpIntel({ enabled: false, base_url: 'http://127.0.0.1:1/{ip}' })
  t.equal(intel.remote, false)
  t.same(await intel.lookup('8.8.8.8'), { network_label: 'public', location_label: 'public_unknown' })
})

t.test('readProviderAnswer rejects shapes that are not labels', async (t) => {
  t.equal(readProviderAnswer(null), undefined)
  t.equal(readProviderAnswer([1]), undefined)
  t.equal(readProviderAnswer({ network_label: 7 }), undefined)
  t.equal(readProviderAnswer({ network_label: '<script>' }), undefined)
  t.equal(readProviderAnswer({ data: 'x' }), undefined)
  t.same(readProviderAnswer({ network_label: 'public', data: { location_label: 'SE' } }), {
    network_label: 'public',
    location_label: 'SE',
  })
})
