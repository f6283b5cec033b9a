import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ALICE, as, BOB, governanceApp, TENANT_ALICE, TENANT_BOB } from '../helpers/app.ts'

type App = Awaited<ReturnType<typeof governanceApp>>['app']

const call = (app: App, headers: Record<string, string>, method: string, url: string, payload?: object) =>
  app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })

const passAll = (template: { checks: Array<{ id: string }> }) =>
  template.checks.map((c) => ({ id: c.id, status: 'passed' as const }))

inEachStorageMode(t, 'the governance walk of a workspace scope', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const alice = await as(ALICE)
  const bob = await as(BOB)
  const base = '/api/security/config/workspace'

  t.match((await call(app, alice, 'GET', base)).json(), {
    tenant_id: 'acme',
    workspace_id: 'support',
    config: {},
    version: 0,
  })

  // change control is required: body or headers
  const bare = await call(app, alice, 'PUT', base, { portal: { brand_name: 'Acme' } })
  t.equal(bare.statusCode, 400)
  t.equal(bare.json().code, 'CHANGE_CONTROL_REQUIRED')

  // a medium change: applied, awaiting verification
  const medium = await call(app, { ...alice, 'x-change-ref': 'CHG-1', 'x-change-reason': 'rebrand' }, 'PUT', base, {
    portal: { brand_name: 'Acme Help', primary_color: '#112233' },
  })
  t.equal(medium.statusCode, 200, medium.body)
  const m = medium.json()
  t.match(m, {
    config: { portal: { brand_name: 'Acme Help' } },
    version: 1,
    change_control: { change_ref: 'CHG-1', reason: 'rebrand' },
    change_risk: { risk_level: 'medium', approval_required: false },
    governance_status: 'awaiting_verification',
    verification_status: 'pending',
    needs_action: true,
  })
  t.ok(m.verification_template.changed_paths.includes('portal.brand_name'), 'template: changed paths at its root')

  // verify: the executor may not; another reviewer must pass every required check with evidence
  const verifyUrl = `${base}/verify/${m.audit_id}`
  const cc = { change_ref: 'CHG-1', reason: 'checked' }
  const self = await call(app, alice, 'POST', verifyUrl, {
    ...cc,
    status: 'passed',
    evidence: ['screenshot'],
    checks: passAll(m.verification_template),
  })
  t.equal(self.statusCode, 403)
  t.equal(self.json().code, 'VERIFICATION_SAME_ACTOR')
  const noEvidence = await call(app, bob, 'POST', verifyUrl, {
    ...cc,
    status: 'passed',
    checks: passAll(m.verification_template),
  })
  t.equal(noEvidence.json().code, 'VERIFICATION_EVIDENCE_REQUIRED')
  const incomplete = await call(app, bob, 'POST', verifyUrl, {
    ...cc,
    status: 'passed',
    evidence: ['x'],
    checks: passAll(m.verification_template).slice(1),
  })
  t.equal(incomplete.json().code, 'VERIFICATION_CHECKS_INCOMPLETE')
  const verified = await call(app, bob, 'POST', verifyUrl, {
    ...cc,
    status: 'passed',
    evidence: ['portal renders'],
    checks: passAll(m.verification_template),
  })
  t.equal(verified.statusCode, 200, verified.body)
  t.match(verified.json(), {
    source_audit_id: m.audit_id,
    verification_status: 'passed',
    source_governance_status: 'verified',
    previous_governance_status: 'awaiting_verification',
  })

  // a high-risk change: refused without approval_ref, with the executor's own approval; accepted with Bob's
  const high = { session_risk: { high_risk_score: 3 }, change_ref: 'CHG-2', reason: 'tighten' }
  t.equal((await call(app, alice, 'PUT', base, high)).json().code, 'APPROVAL_REF_REQUIRED')
  t.equal((await call(app, alice, 'PUT', base, { ...high, approval_ref: 'APR-2' })).json().code, 'APPROVAL_NOT_FOUND')
  const selfApproval = await call(app, alice, 'POST', `${base}/approve`, {
    notes: 'fine',
    change_ref: 'CHG-2',
    reason: 'tighten',
    approval_ref: 'APR-2',
  })
  t.equal(selfApproval.statusCode, 200, selfApproval.body)
  const sameActor = await call(app, alice, 'PUT', base, { ...high, approval_ref: 'APR-2' })
  t.equal(sameActor.statusCode, 403)
  t.equal(sameActor.json().code, 'APPROVAL_SAME_ACTOR')
  t.equal(
    (
      await call(app, bob, 'POST', `${base}/approve`, {
        notes: '',
        change_ref: 'CHG-2',
        reason: 'r',
        approval_ref: 'APR-2',
      })
    ).json().code,
    'APPROVAL_NOTES_REQUIRED',
  )
  t.equal(
    (
      await call(app, bob, 'POST', `${base}/approve`, {
        notes: 'reviewed thresholds',
        change_ref: 'CHG-2',
        reason: 'tighten',
        approval_ref: 'APR-2',
      })
    ).statusCode,
    200,
  )
  const approved = await call(app, alice, 'PUT', base, { ...high, approval_ref: 'APR-2' })
  t.equal(approved.statusCode, 200, approved.body)
  const h = approved.json()
  t.match(h, {
    change_risk: { risk_level: 'high', approval_required: true },
    approval_policy: { approval_status: 'approved' },
    governance_status: 'awaiting_verification',
    config: { portal: { brand_name: 'Acme Help' }, session_risk: { high_risk_score: 3 } },
  })

  const inverted = await call(app, alice, 'PUT', base, {
    session_risk: { medium_risk_score: 5, high_risk_score: 3 },
    change_ref: 'CHG-9',
    reason: 'r',
  })
  t.equal(inverted.statusCode, 400)
  t.match(inverted.json().message, /medium_risk_score/)

  // failed verification → rollback (refused without confirm; high risk; approved by Bob) → the state before
  const failed = await call(app, bob, 'POST', `${base}/verify/${h.audit_id}`, {
    change_ref: 'CHG-2',
    reason: 'r',
    status: 'failed',
    notes: 'too many high-risk sessions',
    checks: [{ id: 'runtime_effect_confirmed', status: 'failed' }],
  })
  t.equal(failed.statusCode, 200, failed.body)
  t.equal(failed.json().source_governance_status, 'verification_failed')
  const rbUrl = `${base}/rollback/${h.audit_id}`
  const rb = { change_ref: 'CHG-3', reason: 'undo CHG-2', restore: 'before' }
  t.equal((await call(app, alice, 'POST', rbUrl, rb)).json().code, 'ROLLBACK_CONFIRMATION_REQUIRED')
  t.equal((await call(app, alice, 'POST', `${rbUrl}?confirm=true`, rb)).json().code, 'APPROVAL_REF_REQUIRED')
  await call(app, bob, 'POST', `${base}/approve`, {
    notes: 'undo ok',
    change_ref: 'CHG-3',
    reason: 'undo',
    approval_ref: 'APR-3',
  })
  const rolled = await call(app, alice, 'POST', `${rbUrl}?confirm=true`, { ...rb, approval_ref: 'APR-3' })
  t.equal(rolled.statusCode, 200, rolled.body)
  t.match(rolled.json(), {
    operation: 'rollback',
    source_audit_id: h.audit_id,
    change_risk: { risk_level: 'high' },
    version: 3,
  })
  t.same(
    rolled.json().config,
    { portal: { brand_name: 'Acme Help', primary_color: '#112233' } },
    'the state before CHG-2',
  )

  const again = await call(app, alice, 'POST', `${rbUrl}?confirm=true`, { ...rb, approval_ref: 'APR-3' })
  t.equal(again.statusCode, 400, 'an approval backs one execution')
  t.equal(again.json().code, 'APPROVAL_ALREADY_USED')

  // history: filters, summary counts, detail; another scope's entry is missing
  const hist = (await call(app, alice, 'GET', `${base}/history`)).json()
  t.equal(hist.total, 3)
  t.match(hist.governance_summary, {
    total_items: 3,
    needs_action_count: 1,
    status_counts: { verified: 1, verification_failed: 1, awaiting_verification: 1 },
  })
  t.equal(hist.applied_filters, null)
  const failing = (await call(app, alice, 'GET', `${base}/history?governance_status=verification_failed`)).json()
  t.equal(failing.total, 1)
  t.same(failing.applied_filters, { governance_status: 'verification_failed' })
  const open = (await call(app, alice, 'GET', `${base}/history?needs_action=true&risk_level=high`)).json()
  t.same(
    open.data.map((i: any) => i.audit.id),
    [rolled.json().audit_id],
    'only the rollback awaits action: the failed change it answered does not',
  )
  t.match(failing.data[0], {
    needs_action: false,
    governance_policy: { rolled_back_by: rolled.json().audit_id, blocking_requirements: [], phase: 'completed' },
  })
  const entry = await call(app, alice, 'GET', `${base}/history/${h.audit_id}`)
  t.equal(entry.statusCode, 200, entry.body)
  t.match(entry.json(), {
    snapshot: { session_risk: { high_risk_score: 3 } },
    diff: { changed_paths: ['session_risk.high_risk_score'] },
    verifications: [{ status: 'failed' }],
  })
  const other = await as({ ...BOB, tenant_id: 'globex', workspace_id: 'main' })
  t.equal((await call(app, other, 'GET', `${base}/history/${h.audit_id}`)).statusCode, 404)
  t.equal(
    (await call(app, other, 'POST', `${base}/verify/${h.audit_id}`, { change_ref: 'c', reason: 'r', status: 'passed' }))
      .statusCode,
    404,
  )
})

inEachStorageMode(t, 'secrets are write-only: sealed at rest, redacted everywhere', async (t, mode) => {
  const { app, store, svc } = await governanceApp(t, mode)
  const alice = await as(TENANT_ALICE)
  const bob = await as(TENANT_BOB)
  const base = '/api/security/config/tenant'
  const secret = 'sk-live-THIS-MUST-NEVER-SHOW-1234'
  await call(app, bob, 'POST', `${base}/approve`, {
    notes: 'ok',
    change_ref: 'K-1',
    reason: 'key',
    approval_ref: 'A-1',
  })
  const put = await call(app, alice, 'PUT', base, {
    llm: { base_url: 'https://llm.example/v1', api_key: secret, model: 'm1' },
    change_ref: 'K-1',
    reason: 'key',
    approval_ref: 'A-1',
  })
  t.equal(put.statusCode, 200, put.body)
  t.equal(put.json().config.llm.api_key, '[REDACTED]')
  t.match(put.json().secrets, { 'llm.api_key': /^sha256:[0-9a-f]{12}$/ })

  // echoing "[REDACTED]" keeps the key (a medium change: only the model moved)
  const echo = await call(app, alice, 'PUT', base, {
    llm: { ...put.json().config.llm, model: 'm2' },
    change_ref: 'K-2',
    reason: 'model',
  })
  t.equal(echo.statusCode, 200, echo.body)
  t.same(echo.json().change_risk.changed_paths, ['llm.model'])
  t.equal(echo.json().secrets['llm.api_key'], put.json().secrets['llm.api_key'], 'same fingerprint: same key')

  // nothing readable shows the secret: responses, history, stored rows
  const texts = [
    put.body,
    echo.body,
    (await call(app, alice, 'GET', base)).body,
    (await call(app, alice, 'GET', `${base}/history`)).body,
    (await call(app, alice, 'GET', `${base}/history/${put.json().audit_id}`)).body,
  ]
  const rows = await svc.db.selectFrom('scoped_configs').selectAll().execute()
  const changes = await svc.db.selectFrom('config_changes').selectAll().execute()
  const events = await svc.db
    .selectFrom('outbox' as never)
    .selectAll()
    .execute()
    .catch(() => [])
  for (const text of [...texts, JSON.stringify(rows), JSON.stringify(changes), JSON.stringify(events)]) {
    t.notOk(text.includes(secret), 'the secret is not there')
    t.notOk(text.includes('THIS-MUST-NEVER'), 'not even a part of it')
  }
  t.ok(JSON.stringify(rows).includes('"v1.'), 'stored sealed')
  void store
})

inEachStorageMode(
  t,
  'scope rules: tenant routes need a tenant, workspace routes both; bad sections name the path',
  async (t, mode) => {
    const { app } = await governanceApp(t, mode)
    const unscoped = await as({ ...ALICE, tenant_id: '', workspace_id: '' })
    t.equal((await call(app, unscoped, 'GET', '/api/security/config/tenant')).json().code, 'TENANT_SCOPE_REQUIRED')
    const tenantOnly = await as({ ...ALICE, workspace_id: '' })
    t.equal((await call(app, tenantOnly, 'GET', '/api/security/config/tenant')).statusCode, 200)
    t.equal(
      (await call(app, tenantOnly, 'GET', '/api/security/config/workspace')).json().code,
      'WORKSPACE_SCOPE_REQUIRED',
    )
    const alice = await as(ALICE)
    const bad = await call(app, alice, 'PUT', '/api/security/config/workspace', {
      portal: { primary_color: 'red' },
      change_ref: 'c',
      reason: 'r',
    })
    t.equal(bad.statusCode, 400)
    t.match(bad.json().message, /primary_color/)
    const unknown = await call(app, alice, 'PUT', '/api/security/config/workspace', {
      portal: { colour: '#fff' },
      change_ref: 'c',
      reason: 'r',
    })
    t.equal(unknown.statusCode, 400)
  },
)

inEachStorageMode(t, 'the public portal: system ← tenant ← workspace ← runtime', async (t, mode) => {
  const { app } = await governanceApp(t, mode, {
    PORTAL_BRAND_NAME: 'System Desk',
    PORTAL_RUNTIME_JSON: '{"support_email":"ops@example.com"}',
  })
  const alice = await as(ALICE)
  const tenantAlice = await as(TENANT_ALICE)
  const portal = async (q = '') => (await app.inject({ method: 'GET', url: `/public/portal/config${q}` })).json()
  t.match(await portal(), { brand_name: 'System Desk', primary_color: '#4299e1', support_email: 'ops@example.com' })
  await call(app, tenantAlice, 'PUT', '/api/security/config/tenant', {
    portal: { brand_name: 'Acme', secondary_color: '#000000' },
    change_ref: 'p1',
    reason: 'r',
  })
  await call(app, alice, 'PUT', '/api/security/config/workspace', {
    portal: { brand_name: 'Acme Support', support_email: 'help@acme.test' },
    change_ref: 'p2',
    reason: 'r',
  })
  t.match(await portal('?tenant_id=acme'), { brand_name: 'Acme', secondary_color: '#000000' })
  t.match(
    await portal('?tenant_id=acme&workspace_id=support'),
    { brand_name: 'Acme Support', secondary_color: '#000000', support_email: 'ops@example.com' },
    'runtime beats the workspace',
  )
  t.match(await portal('?tenant_id=globex&workspace_id=support'), { brand_name: 'System Desk' })
  const removed = await call(app, alice, 'PUT', '/api/security/config/workspace', {
    portal: null,
    change_ref: 'p3',
    reason: 'r',
  })
  t.equal(removed.statusCode, 200, removed.body)
  t.match(
    await portal('?tenant_id=acme&workspace_id=support'),
    { brand_name: 'Acme' },
    'removing the override falls back',
  )
})
