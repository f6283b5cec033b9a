// Who may change which scope: the tenant document is the layer under every workspace of the tenant, so its writes
// (PUT, approve, rollback, verify) need a token bound to no workspace — a tenant administrator's, or an unscoped
// administrator's naming the tenant. A workspace-bound administrator gets 403 TENANT_ADMIN_REQUIRED on each, changes
// nothing, still reads the tenant document (secrets redacted) and still governs its own workspace.
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ALICE, as, BOB, governanceApp, PLATFORM_ADMIN, TENANT_ALICE, TENANT_BOB } from '../helpers/app.ts'

type App = Awaited<ReturnType<typeof governanceApp>>['app']

const call = (app: App, headers: Record<string, string>, method: string, url: string, payload?: object) =>
  app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })

const passAll = (template: { checks: Array<{ id: string }> }) =>
  template.checks.map((c) => ({ id: c.id, status: 'passed' as const }))

const tenant = '/api/security/config/tenant'
const workspace = '/api/security/config/workspace'
const SECRET = 'sk-tenant-NEVER-SHOWN-to-a-workspace-42'

inEachStorageMode(t, 'a workspace-bound administrator cannot change the tenant document', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const wsAlice = await as(ALICE)
  const wsBob = await as(BOB)
  const tAlice = await as(TENANT_ALICE)
  const tBob = await as(TENANT_BOB)
  const refused = (res: Awaited<ReturnType<typeof call>>, what: string) => {
    t.equal(res.statusCode, 403, `${what}: 403`)
    const body = res.json()
    t.match(
      body,
      { error: 'forbidden', code: 'TENANT_ADMIN_REQUIRED', message: /tenant acme.*workspace support/, request_id: /./ },
      `${what}: the documented error body with its own code`,
    )
  }

  // the tenant administrator makes a medium change: the entry the refused rollback / verify aim at
  const medium = await call(app, tAlice, 'PUT', tenant, {
    portal: { brand_name: 'Acme' },
    change_ref: 'T-1',
    reason: 'rebrand',
  })
  t.equal(medium.statusCode, 200, medium.body)
  const mediumId: string = medium.json().audit_id

  // every tenant write of a workspace-bound token: 403, even with a valid body and change control
  refused(
    await call(app, wsAlice, 'PUT', tenant, { portal: { brand_name: 'Hijack' }, change_ref: 'W-1', reason: 'r' }),
    'PUT',
  )
  refused(await call(app, wsAlice, 'PUT', tenant, { nonsense: true }), 'PUT with a bad body: refused before validation')
  refused(
    await call(app, wsBob, 'POST', `${tenant}/approve`, {
      notes: 'looks fine',
      change_ref: 'W-2',
      reason: 'r',
      approval_ref: 'A-W-2',
    }),
    'approve',
  )
  refused(
    await call(app, wsBob, 'POST', `${tenant}/verify/${mediumId}`, {
      change_ref: 'T-1',
      reason: 'v',
      status: 'passed',
      evidence: ['portal renders'],
      checks: passAll(medium.json().verification_template),
    }),
    'verify',
  )
  refused(
    await call(app, wsAlice, 'POST', `${tenant}/rollback/${mediumId}?confirm=true`, {
      change_ref: 'W-3',
      reason: 'undo',
      approval_ref: 'A-W-3',
    }),
    'rollback',
  )

  // nothing changed: same document, still awaiting verification, no approval recorded for the refused ones
  const after = (await call(app, tAlice, 'GET', tenant)).json()
  t.equal(after.version, 1, 'the refused PUT wrote nothing')
  t.equal(after.config.portal.brand_name, 'Acme')
  const history = (await call(app, tAlice, 'GET', `${tenant}/history`)).json()
  t.equal(history.total, 1, 'no history entry for the refused writes')
  t.equal(history.data[0].governance_status, 'awaiting_verification', 'the refused verify recorded nothing')
  const hijack = await call(app, tAlice, 'PUT', tenant, {
    session_risk: { high_risk_score: 9 },
    change_ref: 'W-2',
    reason: 'r',
    approval_ref: 'A-W-2',
  })
  t.equal(hijack.json().code, 'APPROVAL_NOT_FOUND', 'the refused approval does not exist')

  // the tenant administrators still govern the tenant: verify, approve + high-risk change, rollback
  const verified = await call(app, tBob, 'POST', `${tenant}/verify/${mediumId}`, {
    change_ref: 'T-1',
    reason: 'v',
    status: 'passed',
    evidence: ['portal renders'],
    checks: passAll(medium.json().verification_template),
  })
  t.equal(verified.statusCode, 200, verified.body)
  t.equal(verified.json().source_governance_status, 'verified')
  const approval = { notes: 'key rotation reviewed', change_ref: 'T-2', reason: 'key', approval_ref: 'A-T-2' }
  t.equal((await call(app, tBob, 'POST', `${tenant}/approve`, approval)).statusCode, 200)
  const high = await call(app, tAlice, 'PUT', tenant, {
    llm: { base_url: 'https://llm.acme.example/v1', api_key: SECRET, model: 'm1' },
    change_ref: 'T-2',
    reason: 'key',
    approval_ref: 'A-T-2',
  })
  t.equal(high.statusCode, 200, high.body)
  t.equal(high.json().change_risk.risk_level, 'high')

  // a workspace-bound administrator reads the tenant layer of its workspace's configuration, secrets redacted
  const reads = [
    await call(app, wsAlice, 'GET', tenant),
    await call(app, wsAlice, 'GET', `${tenant}/history`),
    await call(app, wsAlice, 'GET', `${tenant}/history/${high.json().audit_id}`),
  ]
  for (const res of reads) {
    t.equal(res.statusCode, 200, res.body)
    t.notOk(res.body.includes(SECRET), 'the secret is not shown')
  }
  t.match(reads[0]?.json(), {
    tenant_id: 'acme',
    config: { portal: { brand_name: 'Acme' }, llm: { api_key: '[REDACTED]' } },
    secrets: { 'llm.api_key': /^sha256:/ },
  })
  t.equal(reads[1]?.json().total, 2)

  // an unscoped platform administrator naming the tenant is no workspace's: it may approve and roll back
  const root = await as(PLATFORM_ADMIN)
  const rootInWorkspace = await as({ ...PLATFORM_ADMIN, workspace_id: 'support' })
  t.equal(
    (
      await call(app, rootInWorkspace, 'POST', `${tenant}/approve`, {
        notes: 'undo reviewed',
        change_ref: 'R-1',
        reason: 'undo',
        approval_ref: 'A-R-1',
      })
    ).statusCode,
    200,
    'an X-Workspace-ID selector does not bind an unscoped token',
  )
  const rolled = await call(app, tAlice, 'POST', `${tenant}/rollback/${high.json().audit_id}?confirm=true`, {
    change_ref: 'R-1',
    reason: 'undo',
    restore: 'before',
    approval_ref: 'A-R-1',
  })
  t.equal(rolled.statusCode, 200, rolled.body)
  t.notOk(rolled.json().config.llm, 'rolled back by a tenant administrator')
  const rootPut = await call(app, root, 'PUT', tenant, {
    portal: { brand_name: 'Acme Corp' },
    change_ref: 'P-1',
    reason: 'r',
  })
  t.equal(rootPut.statusCode, 200, rootPut.body)
})

inEachStorageMode(t, 'a workspace-bound administrator still governs its own workspace', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const wsAlice = await as(ALICE)
  const wsBob = await as(BOB)
  const put = await call(app, wsAlice, 'PUT', workspace, {
    portal: { brand_name: 'Acme Support' },
    change_ref: 'W-1',
    reason: 'rebrand',
  })
  t.equal(put.statusCode, 200, put.body)
  t.match(put.json(), { tenant_id: 'acme', workspace_id: 'support', governance_status: 'awaiting_verification' })
  const verified = await call(app, wsBob, 'POST', `${workspace}/verify/${put.json().audit_id}`, {
    change_ref: 'W-1',
    reason: 'v',
    status: 'passed',
    evidence: ['renders'],
    checks: passAll(put.json().verification_template),
  })
  t.equal(verified.statusCode, 200, verified.body)
  const approved = await call(app, wsBob, 'POST', `${workspace}/approve`, {
    notes: 'thresholds reviewed',
    change_ref: 'W-2',
    reason: 'risk',
    approval_ref: 'A-W-2',
  })
  t.equal(approved.statusCode, 200, approved.body)
  const high = await call(app, wsAlice, 'PUT', workspace, {
    session_risk: { high_risk_score: 7 },
    change_ref: 'W-2',
    reason: 'risk',
    approval_ref: 'A-W-2',
  })
  t.equal(high.statusCode, 200, high.body)
  t.equal((await call(app, wsAlice, 'GET', workspace)).json().version, 2)
  // a tenant administrator narrowed to the workspace governs it too
  const tenantPut = await call(app, await as(TENANT_ALICE), 'PUT', workspace, {
    portal: { brand_name: 'Acme Help' },
    change_ref: 'W-3',
    reason: 'r',
  })
  t.equal(tenantPut.statusCode, 200, tenantPut.body)
})
