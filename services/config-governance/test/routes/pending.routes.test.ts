import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ALICE, as, BOB, governanceApp, TENANT_ALICE, TENANT_BOB } from '../helpers/app.ts'

type App = Awaited<ReturnType<typeof governanceApp>>['app']

const call = (app: App, headers: Record<string, string>, method: string, url: string, payload?: object) =>
  app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })

const base = '/api/security/config/workspace'
const KEY = 'sk-live-do-not-show-0123456789'

inEachStorageMode(t, 'a high-risk change waits for a second administrator', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const alice = await as(ALICE)
  const bob = await as(BOB)
  const cc = { change_ref: 'CHG-P1', reason: 'new LLM endpoint' }
  const proposal = { llm: { base_url: 'https://llm.example/v1', api_key: KEY, model: 'm1' }, ...cc }

  // preview: risk and changed paths, nothing stored, the key never shown back
  const preview = await call(app, alice, 'POST', `${base}/preview`, proposal)
  t.equal(preview.statusCode, 200, preview.body)
  t.match(preview.json(), {
    change_risk: { risk_level: 'high', approval_required: true },
    diff: { changed_paths: ['llm.api_key', 'llm.base_url', 'llm.model'] },
    base_version: 0,
  })
  t.notOk(preview.body.includes(KEY), 'the preview never carries the key')
  t.ok(preview.json().verification_template.checks.length > 0, 'the template of checks')

  // a change that needs no approval is applied with PUT, not proposed
  const medium = await call(app, alice, 'POST', `${base}/pending`, { portal: { brand_name: 'X' }, ...cc })
  t.equal(medium.statusCode, 400)
  t.equal(medium.json().code, 'APPROVAL_NOT_REQUIRED')
  const bare = await call(app, alice, 'POST', `${base}/pending`, { llm: { model: 'm' } })
  t.equal(bare.json().code, 'CHANGE_CONTROL_REQUIRED')

  const proposed = await call(app, alice, 'POST', `${base}/pending`, proposal)
  t.equal(proposed.statusCode, 201, proposed.body)
  const p = proposed.json()
  t.match(p, {
    status: 'pending',
    proposer_user_id: 'alice',
    change_control: { change_ref: 'CHG-P1', approval_ref: `pending-${p.id}` },
    change_risk: { risk_level: 'high' },
    actions: { approve: false, reject: false, withdraw: true },
  })
  t.notOk(proposed.body.includes(KEY), 'the pending change never shows the key')
  t.match(p.diff.changes, [{ path: 'llm.api_key', after: '[REDACTED]' }, { path: 'llm.base_url' }, {}])

  // it waits: the scope is unchanged, no history entry
  t.match((await call(app, bob, 'GET', base)).json(), { config: {}, version: 0 })
  t.equal((await call(app, bob, 'GET', `${base}/history`)).json().total, 0)

  // listed for both: bob may approve or reject, alice may only withdraw
  const listed = (await call(app, bob, 'GET', `${base}/pending`)).json()
  t.equal(listed.total, 1)
  t.match(listed.data[0], { id: p.id, actions: { approve: true, reject: true, withdraw: false } })

  // the proposer cannot approve (or reject) its own change; another tenant does not see it
  const own = await call(app, alice, 'POST', `${base}/pending/${p.id}/approve`, { notes: 'self' })
  t.equal(own.statusCode, 403)
  t.equal(own.json().code, 'APPROVAL_SAME_ACTOR')
  t.equal(
    (await call(app, alice, 'POST', `${base}/pending/${p.id}/reject`, { notes: 'x' })).json().code,
    'REJECTION_SAME_ACTOR',
  )
  t.equal((await call(app, bob, 'POST', `${base}/pending/${p.id}/withdraw`, {})).json().code, 'WITHDRAW_PROPOSER_ONLY')
  const globex = await as({
    ...BOB,
    tenant_id: 'globex',
    workspace_id: 'main',
    token_tenant_id: 'globex',
    token_workspace_id: 'main',
  })
  for (const [method, url] of [
    ['GET', `${base}/pending/${p.id}`],
    ['POST', `${base}/pending/${p.id}/approve`],
  ] as const) {
    const res = await call(app, globex, method, url, method === 'POST' ? { notes: 'looks fine' } : undefined)
    t.equal(res.statusCode, 404, `${method} ${url} from another tenant`)
    t.equal(res.json().code, 'CONFIG_PENDING_NOT_FOUND')
  }
  t.equal((await call(app, globex, 'GET', `${base}/pending`)).json().total, 0)
  const noNotes = await call(app, bob, 'POST', `${base}/pending/${p.id}/approve`, {})
  t.equal(noNotes.json().code, 'APPROVAL_NOTES_REQUIRED')

  // bob approves: it runs, as alice's change backed by bob's approval, awaiting verification
  const approved = await call(app, bob, 'POST', `${base}/pending/${p.id}/approve`, { notes: 'endpoint checked' })
  t.equal(approved.statusCode, 200, approved.body)
  const a = approved.json()
  t.match(a, {
    pending: { status: 'approved', decided_by: 'bob', actions: { approve: false } },
    approval: { actor_user_id: 'bob', approval_ref: `pending-${p.id}`, change_ref: 'CHG-P1' },
    applied: {
      config: { llm: { base_url: 'https://llm.example/v1', api_key: '[REDACTED]', model: 'm1' } },
      version: 1,
      approval_policy: { approval_status: 'approved' },
      governance_status: 'awaiting_verification',
    },
  })
  t.equal(a.pending.applied_audit_id, a.applied.audit_id)
  t.notOk(approved.body.includes(KEY))
  t.match((await call(app, alice, 'GET', base)).json(), { config: { llm: { model: 'm1' } }, version: 1 })
  const entry = (await call(app, alice, 'GET', `${base}/history/${a.applied.audit_id}`)).json()
  t.match(entry, {
    audit: { actor_user_id: 'alice', change_ref: 'CHG-P1' },
    change_risk: { changed_paths: ['llm.api_key', 'llm.base_url', 'llm.model'] },
  })
  // decided once: a second approval is refused, the list of waiting ones is empty
  const again = await call(app, bob, 'POST', `${base}/pending/${p.id}/approve`, { notes: 'again' })
  t.equal(again.statusCode, 409)
  t.equal(again.json().code, 'CONFIG_PENDING_DECIDED')
  t.equal((await call(app, bob, 'GET', `${base}/pending`)).json().total, 0)
  t.equal((await call(app, bob, 'GET', `${base}/pending?status=all`)).json().total, 1)
  // the verifier must differ from the executor (alice); bob may verify
  const verify = await call(app, bob, 'POST', `${base}/verify/${a.applied.audit_id}`, {
    change_ref: 'CHG-P1',
    reason: 'verified',
    status: 'passed',
    evidence: ['answers'],
    checks: a.applied.verification_template.checks.map((c: { id: string }) => ({ id: c.id, status: 'passed' })),
  })
  t.equal(verify.statusCode, 200, verify.body)
  t.equal(verify.json().governance_status, 'verified')
})

inEachStorageMode(t, 'rejected, withdrawn and stale proposals apply nothing', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const alice = await as(ALICE)
  const bob = await as(BOB)
  const propose = async (ref: string, score: number) => {
    const res = await call(app, alice, 'POST', `${base}/pending`, {
      session_risk: { high_risk_score: score },
      change_ref: ref,
      reason: 'tighten',
    })
    t.equal(res.statusCode, 201, res.body)
    return res.json().id as string
  }
  const r = await propose('CHG-R', 3)
  t.equal((await call(app, bob, 'POST', `${base}/pending/${r}/reject`, {})).json().code, 'DECISION_NOTES_REQUIRED')
  const rejected = await call(app, bob, 'POST', `${base}/pending/${r}/reject`, { notes: 'too strict' })
  t.match(rejected.json(), {
    status: 'rejected',
    decided_by: 'bob',
    decision_notes: 'too strict',
    applied_audit_id: null,
  })
  const w = await propose('CHG-W', 2)
  t.match((await call(app, alice, 'POST', `${base}/pending/${w}/withdraw`)).json(), { status: 'withdrawn' })
  t.equal((await call(app, bob, 'POST', `${base}/pending/${w}/approve`, { notes: 'ok' })).statusCode, 409)
  t.match((await call(app, bob, 'GET', base)).json(), { config: {}, version: 0 })

  // two proposals on version 0: the first approved changes the scope, the second is stale
  const first = await propose('CHG-S1', 3)
  const second = await propose('CHG-S2', 2)
  t.equal((await call(app, bob, 'POST', `${base}/pending/${first}/approve`, { notes: 'ok' })).statusCode, 200)
  const stale = await call(app, bob, 'POST', `${base}/pending/${second}/approve`, { notes: 'ok' })
  t.equal(stale.statusCode, 409)
  t.equal(stale.json().code, 'CONFIG_PENDING_STALE')
  t.match((await call(app, bob, 'GET', `${base}/pending/${second}`)).json(), { status: 'pending' })
  t.match((await call(app, bob, 'GET', base)).json(), { config: { session_risk: { high_risk_score: 3 } }, version: 1 })
})

inEachStorageMode(t, 'the tenant scope: proposals need tenant-level administrators', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const tenantBase = '/api/security/config/tenant'
  const body = { session_risk: { high_risk_score: 3 }, change_ref: 'CHG-T', reason: 'tenant-wide' }
  const bound = await call(app, await as(ALICE), 'POST', `${tenantBase}/pending`, body)
  t.equal(bound.statusCode, 403)
  t.equal(bound.json().code, 'TENANT_ADMIN_REQUIRED')
  const proposed = await call(app, await as(TENANT_ALICE), 'POST', `${tenantBase}/pending`, body)
  t.equal(proposed.statusCode, 201, proposed.body)
  const id = proposed.json().id
  // the workspace's list does not hold the tenant's proposal
  t.equal((await call(app, await as(TENANT_BOB), 'GET', `${base}/pending`)).json().total, 0)
  const approved = await call(app, await as(TENANT_BOB), 'POST', `${tenantBase}/pending/${id}/approve`, { notes: 'ok' })
  t.equal(approved.statusCode, 200, approved.body)
  t.match((await call(app, await as(ALICE), 'GET', tenantBase)).json(), {
    config: { session_risk: { high_risk_score: 3 } },
  })
})

inEachStorageMode(t, 'two administrators approving one change at once: it runs once', async (t, mode) => {
  const { app } = await governanceApp(t, mode)
  const alice = await as(ALICE)
  const proposed = await call(app, alice, 'POST', `${base}/pending`, {
    session_risk: { high_risk_score: 3 },
    change_ref: 'CHG-RACE',
    reason: 'race',
  })
  t.equal(proposed.statusCode, 201, proposed.body)
  const url = `${base}/pending/${proposed.json().id}/approve`
  const [one, two] = await Promise.all([
    call(app, await as(BOB), 'POST', url, { notes: 'bob looked' }),
    call(app, await as({ ...BOB, user_id: 'carol' }), 'POST', url, { notes: 'carol looked' }),
  ])
  t.same([one.statusCode, two.statusCode].sort(), [200, 409], `${one.body} / ${two.body}`)
  t.equal([one, two].find((r) => r.statusCode === 409)?.json().code, 'CONFIG_PENDING_DECIDED')
  const history = (await call(app, alice, 'GET', `${base}/history`)).json()
  t.equal(history.total, 1, 'one execution')
  t.equal((await call(app, alice, 'GET', base)).json().version, 1)
})
