import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildKeyring, principalKind, verifyToken } from '@switchboard/auth'
import t, { type Test } from 'tap'
import { parseWorkspaceSpec } from '../src/commands/tenant.ts'
import { REPO_ROOT } from '../src/fleet.ts'
import { resolveSecret } from '../src/secrets.ts'

const bin = join(REPO_ROOT, 'packages/cli/src/bin.ts')
const secret = 'tenant-cli-test-secret-0123456789abcdef'

interface Seen {
  method: string
  url: string
  authorization: string
  body: any
}

/** A stand-in gateway: records each call and answers what the registry would. */
async function fakeGateway(t: Test) {
  const seen: Seen[] = []
  const read = async (req: IncomingMessage) => {
    let text = ''
    for await (const chunk of req) text += chunk
    return text ? JSON.parse(text) : undefined
  }
  const server = createServer(async (req, res) => {
    const body = await read(req)
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization ?? '', body })
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    const tenant = (id: string, status = 'active') => ({
      id,
      name: id === 'acme' ? 'Acme' : id,
      status,
      settings: { public_registration: true, widget_enabled: true },
    })
    if (req.method === 'POST' && req.url === '/api/security/tenants') {
      if (body.id === 'taken')
        return send(409, { code: 'IDENTITY_TENANT_EXISTS', message: 'tenant taken already exists' })
      return send(201, { ...tenant(body.id), name: body.name, workspaces: body.workspaces ?? [] })
    }
    if (req.method === 'GET' && req.url?.startsWith('/api/security/tenants?page=1')) {
      return send(200, {
        data: [tenant('acme'), tenant('globex', 'disabled')],
        total: 2,
        page: 1,
        page_size: 200,
        pages: 1,
      })
    }
    const m = /^\/api\/security\/tenants\/([^/]+)\/(disable|enable)$/.exec(req.url ?? '')
    if (req.method === 'POST' && m?.[1]) return send(200, tenant(m[1], m[2] === 'disable' ? 'disabled' : 'active'))
    send(404, { code: 'ROUTE_NOT_FOUND', message: 'no' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

t.test('workspace specs', async (t) => {
  t.same(parseWorkspaceSpec('support'), { id: 'support' })
  t.same(parseWorkspaceSpec('sales:Sales team'), { id: 'sales', name: 'Sales team' })
  t.throws(() => parseWorkspaceSpec('Sales'), /lower-case slug/)
  t.throws(() => parseWorkspaceSpec(':x'), /W or W:name/)
})

t.test('tenant create calls the registry as a platform service with a token it minted', async (t) => {
  const gw = await fakeGateway(t)
  const env = { JWT_SECRET: secret }
  const out = await cli(
    [
      'tenant',
      'create',
      'acme',
      '--name',
      'Acme',
      '--workspace',
      'support:Support desk',
      '--workspace',
      'sales',
      '--no-public-registration',
      '--gateway',
      gw.url,
    ],
    env,
  )
  t.equal(out.code, 0, out.stderr)
  t.equal(out.stdout.trim(), 'created tenant acme (Acme) with workspaces support, sales')
  const call = gw.seen[0]
  t.match(call, { method: 'POST', url: '/api/security/tenants' })
  t.same(call?.body, {
    id: 'acme',
    name: 'Acme',
    settings: { public_registration: false, widget_enabled: true },
    workspaces: [{ id: 'support', name: 'Support desk' }, { id: 'sales' }],
  })
  const token = call?.authorization.replace(/^Bearer /, '') ?? ''
  const claims = await verifyToken(buildKeyring(secret), token, { expectedUse: 'access' })
  t.equal(principalKind(claims), 'service')
  t.same(claims.permissions, ['security.*'])
  t.match(
    claims,
    { tenant_id: '', workspace_id: '', user_id: 'service:switchboard-cli' },
    'unscoped: a platform caller',
  )
  t.ok(claims.exp - claims.iat <= 300, 'short-lived')

  const refused = await cli(['tenant', 'create', 'taken', '--name', 'T', '--gateway', gw.url], env)
  t.equal(refused.code, 1)
  t.match(refused.stderr, /409 IDENTITY_TENANT_EXISTS tenant taken already exists/)
  const bad = await cli(['tenant', 'create', 'x1', '--name', 'X', '--workspace', 'Bad', '--gateway', gw.url], env)
  t.match(bad.stderr, /--workspace Bad/)
  const noName = await cli(['tenant', 'create', 'x1', '--gateway', gw.url], env)
  t.not(noName.code, 0, '--name is required')
})

t.test('tenant list, disable and enable; SWITCHBOARD_GATEWAY and the embedded data dir', async (t) => {
  const gw = await fakeGateway(t)
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-cli-tenant-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const stored = resolveSecret({}, 'JWT_SECRET', dataDir).value // what an embedded start leaves behind
  const env = { SWITCHBOARD_GATEWAY: gw.url }

  const list = await cli(['tenant', 'list', '--data-dir', dataDir], env)
  t.equal(list.code, 0, list.stderr)
  t.match(list.stdout, /^2 tenant\(s\)/)
  t.match(list.stdout, /acme\s+active\s+registration=yes\s+widget=yes\s+Acme/)
  t.match(list.stdout, /globex\s+disabled/)
  const token = gw.seen[0]?.authorization.replace(/^Bearer /, '') ?? ''
  t.ok(await verifyToken(buildKeyring(stored), token, { expectedUse: 'access' }), 'signed with the stored secret')

  const json = await cli(['tenant', 'list', '--json', '--data-dir', dataDir], env)
  t.equal(JSON.parse(json.stdout).count, 2)
  const off = await cli(['tenant', 'disable', 'globex', '--data-dir', dataDir], env)
  t.equal(off.stdout.trim(), 'tenant globex disabled')
  t.match(gw.seen.at(-1), { method: 'POST', url: '/api/security/tenants/globex/disable' })
  const on = await cli(['tenant', 'enable', 'globex', '--data-dir', dataDir], env)
  t.equal(on.stdout.trim(), 'tenant globex enabled')

  const noSecret = await cli(['tenant', 'list', '--data-dir', join(dataDir, 'empty')], env)
  t.equal(noSecret.code, 1)
  t.match(noSecret.stderr, /no JWT secret/)
})
