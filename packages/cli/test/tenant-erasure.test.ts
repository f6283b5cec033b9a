// `switchboard tenant erase|erasure` against a stand-in gateway that answers as identity's
// /api/security/tenants/:id/erasure does: the POST starts it, GETs follow it until every unit reported.
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildKeyring, verifyToken } from '@switchboard/auth'
import t, { type Test } from 'tap'
import { REPO_ROOT } from '../src/fleet.ts'

const bin = join(REPO_ROOT, 'packages/cli/src/bin.ts')
const secret = 'tenant-erasure-cli-test-secret-0123456789'

const report = (status: 'in_progress' | 'completed') => ({
  id: 'te-1',
  status,
  requested_at: '2026-11-27T10:00:00.000Z',
  completed_at: status === 'completed' ? '2026-11-27T10:00:02.000Z' : null,
  services: [
    { service: 'identity', counts: { customers_erased: 3, staff_accounts_emptied: 2 }, reported_at: 'x' },
    ...(status === 'completed'
      ? [{ service: 'conversations', counts: { sessions_tombstoned: 2, uploads_deleted: 1 }, reported_at: 'y' }]
      : []),
  ],
  pending: status === 'completed' ? [] : ['conversations'],
})

/** `completeAfter` GETs answer completed (never: -1); tenant `ghost` is unknown (404). */
async function fakeGateway(t: Test, completeAfter: number) {
  const seen: { method: string; url: string; authorization: string }[] = []
  let gets = 0
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization ?? '' })
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    const m = /^\/api\/security\/tenants\/([^/]+)\/erasure$/.exec(req.url ?? '')
    if (!m?.[1]) return send(404, { code: 'ROUTE_NOT_FOUND', message: 'no' })
    if (m[1] === 'ghost') return send(404, { code: 'IDENTITY_TENANT_NOT_FOUND', message: 'tenant ghost not found' })
    if (m[1] === 'never') {
      return send(200, { tenant_id: 'never', status: 'active', started: 0, erasures: { in_progress: 0, completed: 0 } })
    }
    const complete = req.method === 'GET' && completeAfter >= 0 && ++gets >= completeAfter
    const body = {
      tenant_id: m[1],
      status: 'disabled',
      started: req.method === 'POST' ? 3 : 0,
      erasures: complete ? { in_progress: 0, completed: 3 } : { in_progress: 3, completed: 0 },
      report: report(complete ? 'completed' : 'in_progress'),
    }
    send(req.method === 'POST' ? 202 : 200, body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

async function cli(args: string[]) {
  try {
    const run = promisify(execFile)
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, JWT_SECRET: secret },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

const bearer = (s: { authorization: string } | undefined) => s?.authorization.replace(/^Bearer /, '') ?? ''

t.test('tenant erase starts the erasure and follows it until every unit reported', async (t) => {
  const gw = await fakeGateway(t, 2)
  const out = await cli(['tenant', 'erase', 'acme', '--gateway', gw.url])
  t.equal(out.code, 0, out.stderr)
  t.match(out.stdout, /^erasure te-1 of tenant acme: completed \(tenant disabled; customers' erasures: 3 completed/)
  t.match(out.stdout, /identity\s+customers_erased=3 staff_accounts_emptied=2/)
  t.match(out.stdout, /conversations\s+sessions_tombstoned=2 uploads_deleted=1/)
  t.notMatch(out.stdout, /pending/)
  t.same(
    gw.seen.map((s) => `${s.method} ${s.url}`),
    ['POST', 'GET', 'GET'].map((m) => `${m} /api/security/tenants/acme/erasure`),
    'one POST, then GETs until completed',
  )
  const claims = await verifyToken(buildKeyring(secret), bearer(gw.seen[0]), { expectedUse: 'access' })
  t.match(
    claims,
    { tenant_id: '', user_id: 'service:switchboard-cli', permissions: ['security.*', 'customers.erase'] },
    'a platform call with the erasure permission',
  )
})

t.test("an administrator's own token starts it; the platform token follows it", async (t) => {
  const gw = await fakeGateway(t, 1)
  const out = await cli(['tenant', 'erase', 'acme', '--gateway', gw.url, '--token', 'admin-token', '--json'])
  t.equal(out.code, 0, out.stderr)
  t.match(JSON.parse(out.stdout), { tenant_id: 'acme', report: { id: 'te-1', status: 'completed', pending: [] } })
  t.equal(gw.seen[0]?.authorization, 'Bearer admin-token', 'the POST is made as the administrator (audited as them)')
  t.not(gw.seen[1]?.authorization, 'Bearer admin-token', "the follow-up does not use the disabled tenant's token")
})

t.test('--wait 0 returns at once; a report still pending after --wait exits 2', async (t) => {
  const gw = await fakeGateway(t, -1)
  const now = await cli(['tenant', 'erase', 'acme', '--gateway', gw.url, '--wait', '0'])
  t.equal(now.code, 0, now.stderr)
  t.match(now.stdout, /in_progress[\s\S]*pending: conversations/)
  t.equal(gw.seen.length, 1, 'no polling')
  const late = await cli(['tenant', 'erase', 'acme', '--gateway', gw.url, '--wait', '1'])
  t.equal(late.code, 2, 'not completed in time')
  t.match(late.stdout, /pending: conversations/)
  const bad = await cli(['tenant', 'erase', 'acme', '--gateway', gw.url, '--wait', 'soon'])
  t.equal(bad.code, 1)
  t.match(bad.stderr, /--wait soon: expected seconds/)
})

t.test('tenant erasure reads the report; an unknown tenant fails with the API error', async (t) => {
  const gw = await fakeGateway(t, 1)
  const status = await cli(['tenant', 'erasure', 'acme', '--gateway', gw.url])
  t.equal(status.code, 0, status.stderr)
  t.match(status.stdout, /^erasure te-1 of tenant acme: completed/)
  t.same(
    gw.seen.map((s) => s.method),
    ['GET'],
  )
  const never = await cli(['tenant', 'erasure', 'never', '--gateway', gw.url])
  t.equal(
    never.stdout.trim(),
    "tenant never (active) has not been erased; customers' erasures: 0 completed, 0 in progress",
  )
  const ghost = await cli(['tenant', 'erase', 'ghost', '--gateway', gw.url])
  t.equal(ghost.code, 1)
  t.match(ghost.stderr, /POST \/api\/security\/tenants\/ghost\/erasure → 404 IDENTITY_TENANT_NOT_FOUND/)
})
