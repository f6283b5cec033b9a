// Dual control of governed configuration (issue 22 §3) in a real browser against the embedded default, with TWO
// administrators in two browser contexts: admin A changes the workspace's LLM timeout and key on the Configuration
// screen, sees the API's computed risk (high) and changed paths before sending, and proposes it; it waits (the API
// still answers the old value), A sees it waiting without an Approve button (and the API refuses A's own approval);
// admin B — created through the API by A — sees it in Approvals with its proposer, risk and diff equal to the API's,
// approves it; the API then answers the new value, the history shows the change with its diff, A (its executor) is
// offered no Verify button and B verifies it against the template's checks. The key is never shown back. Then B
// rejects A's session-risk proposal with notes: nothing applied. axe on each page. No sleeps: every wait is on a
// condition.

import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const SECRET = `sk-dual-${suffix}-NEVER-SHOWN`
const ws = '/api/security/config/workspace'
const admin = await login(api, system.admin.username, system.admin.password)
const asA = { token: admin.token }

// the second administrator of the same workspace, created by the first through the API
const pw = `Pw-dual-${suffix}-0123456789`
const created = await api.post(
  '/api/security/users',
  { username: `dual2_${suffix}`, email: `dual2_${suffix}@e2e.example.com`, role: 'admin', password: pw },
  asA,
)
if (created.status !== 201) throw new Error(`second admin: ${created.status} ${created.text}`)
const second = { username: `dual2_${suffix}`, password: pw }
const asB = { token: (await login(api, second.username, second.password)).token }

t.test(
  'A proposes a high-risk change, it waits; B approves it; it applies, with its diff in the history',
  async (t) => {
    const ref = `DUAL-${suffix}`
    const timeout = 20_000 + Math.floor(Math.random() * 10_000)
    const before = await api.get(ws, asA)
    t.equal(before.status, 200, before.text)
    t.not(before.body.config.llm?.timeout_ms, timeout)

    // admin A: the LLM section, its values and sources, a change reviewed with the API's risk before sending
    const a = await newPage(t, browser, system)
    await loginAs(a, system.admin, '/admin/configuration')
    await a.getByRole('heading', { name: 'Configuration', level: 1 }).waitFor({ timeout: WAIT_MS })
    const llm = a.getByRole('form', { name: 'LLM', exact: true })
    await llm.waitFor({ timeout: WAIT_MS })
    const timeoutRow = llm.getByRole('row').filter({ has: a.getByRole('rowheader', { name: 'LLM timeout (ms)' }) })
    t.match(
      await timeoutRow.locator('td').last().textContent(),
      /^(runtime|workspace|tenant|system|default)$/,
      'its source',
    )
    await checkAxe(t, a, 'the configuration screen with the high-risk sections')
    await llm.getByLabel('LLM timeout (ms)').fill(String(timeout))
    await llm.getByLabel('LLM API key (new value)').fill(SECRET)
    await llm.getByRole('button', { name: 'Review LLM change' }).click()
    const review = llm.getByRole('region', { name: 'Review of the LLM change' })
    await review.waitFor({ timeout: WAIT_MS })
    t.match(await review.textContent(), /Risk: high — a second administrator must approve it/, "the API's risk")
    const items = await review.getByRole('list', { name: 'Changed paths' }).getByRole('listitem').allTextContents()
    t.same(
      items.map((i) => i.split(':')[0]),
      ['llm.api_key', 'llm.timeout_ms'],
      'the changed paths before sending',
    )
    t.match(items[0], '"[REDACTED]"', 'the new key is not shown back')
    t.notOk((await review.textContent())?.includes(SECRET), 'no key in the review')
    await review.getByRole('textbox', { name: 'Change reference', exact: true }).fill(ref)
    await review.getByRole('textbox', { name: 'Reason', exact: true }).fill('slower provider, new key')
    await checkAxe(t, a, 'the review of a high-risk change')
    await review.getByRole('button', { name: 'Propose for approval' }).click()
    await llm
      .getByRole('status')
      .filter({ hasText: 'Waiting for approval: llm.api_key, llm.timeout_ms' })
      .waitFor({ timeout: WAIT_MS })

    // it waits: not applied
    const pending = (await api.get(`${ws}/pending`, asA)).body.data.find(
      (p: any) => p.change_control.change_ref === ref,
    )
    t.ok(pending, 'the API lists it as pending')
    t.equal((await api.get(ws, asB)).body.config.llm?.timeout_ms, before.body.config.llm?.timeout_ms, 'not applied')

    // A sees it waiting, with no Approve button; the API refuses A's own approval anyway
    const mine = a.getByRole('article', { name: `Change ${ref}` })
    await mine.waitFor({ timeout: WAIT_MS })
    await mine
      .getByRole('status')
      .filter({ hasText: 'Waiting for another administrator' })
      .waitFor({ timeout: WAIT_MS })
    t.equal(await mine.getByRole('button', { name: `Approve ${ref}` }).count(), 0, 'no Approve button for the proposer')
    t.equal(await mine.getByRole('button', { name: `Reject ${ref}` }).count(), 0, 'no Reject button either')
    t.equal(await mine.getByRole('button', { name: `Withdraw ${ref}` }).count(), 1, 'it may withdraw it')
    const own = await api.post(`${ws}/pending/${pending.id}/approve`, { notes: 'mine' }, asA)
    t.equal(own.status, 403)
    t.equal(own.body.code, 'APPROVAL_SAME_ACTOR')
    await checkAxe(t, a, "the proposer's approvals list")

    // admin B, in its own browser context: the change in Approvals, as the API has it
    const b = await newPage(t, browser, system)
    await loginAs(b, second, '/admin/configuration')
    const theirs = b.getByRole('article', { name: `Change ${ref}` })
    await theirs.waitFor({ timeout: WAIT_MS })
    const facts = await theirs.locator('dd').allTextContents()
    t.equal(facts[0], pending.proposer_user_id, 'the proposer, as the API says')
    t.equal(facts[1], 'high', 'its risk')
    const diff = theirs.getByRole('table', { name: `Diff ${ref}` })
    t.same(await diff.getByRole('rowheader').allTextContents(), pending.diff.changed_paths, 'the diff paths')
    const timeoutDiff = diff.getByRole('row').filter({ has: b.getByRole('rowheader', { name: 'llm.timeout_ms' }) })
    t.equal(await timeoutDiff.locator('td').last().textContent(), String(timeout), 'the new value in the diff')
    t.notOk((await b.content()).includes(SECRET), "B's page never holds the key")
    await checkAxe(t, b, "the second administrator's approvals list")
    const approve = theirs.getByRole('button', { name: `Approve ${ref}` })
    t.ok(await approve.isDisabled(), 'approval needs notes')
    await theirs.getByRole('textbox', { name: `Notes for ${ref}` }).fill('timeout and key reviewed')
    await approve.click()
    await theirs.waitFor({ state: 'detached', timeout: WAIT_MS })

    // applied: the API answers the new value, the key stored (its fingerprint only)
    const after = await until('the approved change applied', async () => {
      const res = await api.get(ws, asA)
      return res.body.config.llm?.timeout_ms === timeout ? res : undefined
    })
    t.equal(after.body.config.llm.api_key, '[REDACTED]')
    t.match(after.body.secrets, { 'llm.api_key': /^sha256:/ })
    t.notOk(after.text.includes(SECRET))
    const decided = (await api.get(`${ws}/pending/${pending.id}`, asA)).body
    t.match(decided, { status: 'approved', decided_by: String })

    // the history on B's page: the change, its diff
    const history = b.getByRole('table', { name: 'Configuration history' })
    const row = history.getByRole('row').filter({ hasText: ref })
    await row.waitFor({ timeout: WAIT_MS })
    t.match(await row.textContent(), /llm\.api_key, llm\.timeout_ms.*high/)
    await row.getByRole('button', { name: `Show diff ${ref}` }).click()
    const entryDiff = b
      .getByRole('table', { name: /^Diff / })
      .getByRole('row')
      .filter({ has: b.getByRole('rowheader', { name: 'llm.timeout_ms' }) })
    await entryDiff.waitFor({ timeout: WAIT_MS })
    t.equal(await entryDiff.locator('td').last().textContent(), String(timeout), 'the history diff shows the new value')
    await checkAxe(t, b, 'the history with the diff')

    // verification: A executed it (the history names the proposer), so A gets no Verify button; B verifies
    await a.reload()
    const aRow = a.getByRole('table', { name: 'Configuration history' }).getByRole('row').filter({ hasText: ref })
    await aRow.waitFor({ timeout: WAIT_MS })
    t.equal(await aRow.getByRole('button', { name: `Verify ${ref}` }).count(), 0, 'no Verify button for the executor')
    t.notOk((await a.content()).includes(SECRET), "A's page never shows the key back")
    await row.getByRole('button', { name: `Verify ${ref}` }).click()
    const verify = b.getByRole('form', { name: `Verify ${ref}` })
    await verify.waitFor({ timeout: WAIT_MS })
    const entry = (await api.get(`${ws}/history/${decided.applied_audit_id}`, asB)).body
    t.equal(await verify.getByRole('combobox').count(), entry.verification_template.checks.length + 1, 'one per check')
    await verify.getByRole('textbox', { name: 'Evidence' }).fill('a reply came back within the timeout')
    await verify.getByRole('textbox', { name: 'Reason', exact: true }).fill('post-change check')
    await checkAxe(t, b, 'the verification form')
    await verify.getByRole('button', { name: 'Record verification' }).click()
    await verify
      .getByRole('status')
      .filter({ hasText: 'Verification recorded: verified' })
      .waitFor({ timeout: WAIT_MS })
    t.equal((await api.get(`${ws}/history/${decided.applied_audit_id}`, asA)).body.governance_status, 'verified')
  },
)

t.test('B rejects a proposed session-risk change with notes: nothing is applied', async (t) => {
  const ref = `REJ-${suffix}`
  const before = (await api.get(ws, asA)).body.config.session_risk ?? {}
  const score = before.high_risk_score === 15 ? 16 : 15
  const a = await newPage(t, browser, system)
  await loginAs(a, system.admin, '/admin/configuration')
  const form = a.getByRole('form', { name: 'Session risk', exact: true })
  await form.getByLabel('High risk score').fill(String(score))
  await form.getByRole('button', { name: 'Review Session risk change' }).click()
  const review = form.getByRole('region', { name: 'Review of the Session risk change' })
  await review.waitFor({ timeout: WAIT_MS }) // the review appears when the API's preview answers
  t.same(await review.getByRole('listitem').allTextContents(), [
    `session_risk.high_risk_score: ${JSON.stringify(before.high_risk_score ?? null)} → ${score}`,
  ])
  await review.getByRole('textbox', { name: 'Change reference', exact: true }).fill(ref)
  await review.getByRole('textbox', { name: 'Reason', exact: true }).fill('stricter sessions')
  await review.getByRole('button', { name: 'Propose for approval' }).click()
  await form.getByRole('status').filter({ hasText: 'Waiting for approval' }).waitFor({ timeout: WAIT_MS })

  const b = await newPage(t, browser, system)
  await loginAs(b, second, '/admin/configuration')
  const theirs = b.getByRole('article', { name: `Change ${ref}` })
  await theirs.getByRole('textbox', { name: `Notes for ${ref}` }).fill('too strict for now')
  await theirs.getByRole('button', { name: `Reject ${ref}` }).click()
  await theirs.waitFor({ state: 'detached', timeout: WAIT_MS })
  await b.getByText('No change is waiting for approval.').waitFor({ timeout: WAIT_MS })
  const all = await api.get(`${ws}/pending?status=all`, asA)
  t.match(
    all.body.data.find((p: any) => p.change_control.change_ref === ref),
    { status: 'rejected', decision_notes: 'too strict for now', applied_audit_id: null },
    'rejected in the API',
  )
  t.same((await api.get(ws, asB)).body.config.session_risk ?? {}, before, 'nothing applied')
  await checkAxe(t, b, 'the approvals list emptied')
})
