// A tenant's erasure in config-governance (both storage modes): after `identity.tenant.erasure_requested`, no table
// holds what the tenant's people wrote or who they were — documents, history, approvals, verifications, pending
// changes, integrations — while the history keeps its entries, statuses and versions; the unit reports once; another
// tenant keeps everything.
import { randomUUID } from 'node:crypto'
import {
  type Envelope,
  ERASED_TEXT,
  IdentityTenantErasureEvents,
  type TenantErasureReported,
} from '@switchboard/contracts'
import { fromJson } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import type { ConfigGovernanceDatabase } from '../../src/db/database.ts'
import { ALICE, as, BOB, governanceApp } from '../helpers/app.ts'

const base = '/api/security/config/workspace'
const TABLES: (keyof ConfigGovernanceDatabase)[] = [
  'scoped_configs',
  'config_changes',
  'config_approvals',
  'config_verifications',
  'config_pending_changes',
  'app_integrations',
]
const GLOBEX = {
  ...ALICE,
  user_id: 'gina',
  tenant_id: 'globex',
  workspace_id: 'main',
  token_tenant_id: 'globex',
  token_workspace_id: 'main',
}

/** Every row of every table holding `marker`, as `table: row`. */
async function holding(db: Kysely<ConfigGovernanceDatabase>, marker: string) {
  const found: string[] = []
  for (const table of TABLES) {
    for (const row of await db.selectFrom(table).selectAll().execute()) {
      const text = JSON.stringify(row)
      if (text.toLowerCase().includes(marker.toLowerCase())) found.push(`${table}: ${text}`)
    }
  }
  return found
}

function erasureOf(tenant_id: string): Envelope {
  return {
    id: randomUUID(),
    type: IdentityTenantErasureEvents.requested.type,
    version: 1,
    occurred_at: new Date().toISOString(),
    tenant_id,
    workspace_id: '',
    actor: { user_id: 'alice', kind: 'admin' },
    data: { tenant_erasure_id: `te-${tenant_id}`, tenant_id, user_ids: ['alice', 'bob'], identifiers: ['Alice'] },
  }
}

inEachStorageMode(t, "config-governance's part of a tenant's erasure", async (t, mode) => {
  const { app, svc } = await governanceApp(t, mode)
  const call = async (who: object, method: string, url: string, payload?: object) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: await as(who as typeof ALICE),
      ...(payload ? { payload } : {}),
    })
  const reports: TenantErasureReported[] = []
  const sub = await svc.bus.subscribe('config.tenant_erasure.>', async (d) => {
    reports.push(d.envelope.data as TenantErasureReported)
  })
  t.teardown(() => sub.stop())

  // acme: a verified portal change, an approved high-risk one, a pending proposal and an integration, each naming
  // the marker MARKA; globex: a change and an integration naming MARKG
  const portal = await call(ALICE, 'PUT', base, {
    portal: { brand_name: 'Brand MARKA', support_email: 'alice.marka@acme.example' },
    change_ref: 'CHG-MARKA-1',
    reason: 'rebrand asked by Alice MARKA',
  })
  t.equal(portal.statusCode, 200, portal.body)
  const template = portal.json().verification_template as { checks: { id: string }[] }
  const verified = await call(BOB, 'POST', `${base}/verify/${portal.json().audit_id}`, {
    change_ref: 'CHG-MARKA-1',
    reason: 'checked by Bob MARKA',
    status: 'passed',
    notes: 'looks right MARKA',
    evidence: ['screenshot MARKA'],
    checks: template.checks.map((c) => ({ id: c.id, status: 'passed' })),
  })
  t.equal(verified.statusCode, 200, verified.body)
  const high = { session_risk: { high_risk_score: 3 }, change_ref: 'CHG-MARKA-2', reason: 'tighten MARKA' }
  const approval = await call(BOB, 'POST', `${base}/approve`, {
    change_ref: high.change_ref,
    reason: high.reason,
    notes: 'fine by Bob MARKA',
    evidence: ['ticket MARKA'],
    approval_ref: 'APR-MARKA',
  })
  t.equal(approval.statusCode, 200, approval.body)
  t.equal((await call(ALICE, 'PUT', base, { ...high, approval_ref: 'APR-MARKA' })).statusCode, 200)
  const llm = { base_url: 'https://llm.example/marka', api_key: 'sk-MARKA-0123456789abcdef', model: 'm' }
  const proposal = { llm, change_ref: 'CHG-MARKA-3', reason: 'new model for MARKA' }
  const proposed = await call(ALICE, 'POST', `${base}/pending`, proposal)
  t.equal(proposed.statusCode, 201, proposed.body)
  const crm = { name: 'CRM of MARKA', iframe_url: 'https://crm.example/marka', summary: 'kept by Alice MARKA' }
  t.equal((await call(ALICE, 'POST', '/api/apps/integrations', crm)).statusCode, 201)
  const kept = await call(GLOBEX, 'PUT', base, {
    portal: { brand_name: 'Brand MARKG' },
    change_ref: 'CHG-MARKG',
    reason: 'globex MARKG',
  })
  t.equal(kept.statusCode, 200, kept.body)
  const keptApp = { name: 'Desk MARKG', iframe_url: 'https://desk.example/markg' }
  t.equal((await call(GLOBEX, 'POST', '/api/apps/integrations', keptApp)).statusCode, 201)

  const historyBefore = (await call(ALICE, 'GET', `${base}/history`)).json()
  t.equal(historyBefore.total, 2)
  t.ok((await holding(svc.db, 'MARKA')).length >= 6, 'before: the tables hold the marker')

  const erasure = erasureOf('acme')
  await svc.bus.publish(erasure.type, erasure)
  await waitFor(() => reports.length > 0)

  t.test('it reports once, with its counts', async (t) => {
    t.match(reports, [
      {
        tenant_erasure_id: 'te-acme',
        tenant_id: 'acme',
        service: 'config-governance',
        counts: {
          configs_emptied: 1,
          history_entries_masked: 2,
          approvals_masked: 1,
          verifications_masked: 1,
          pending_changes_masked: 1,
          pending_changes_withdrawn: 1,
          integrations_deleted: 1,
        },
      },
    ])
  })

  t.test('no table holds the tenant: text and ids tokenised, notes tombstoned, integrations gone', async (t) => {
    t.same(await holding(svc.db, 'MARKA'), [])
    t.same(await holding(svc.db, 'alice'), [], "no record names its administrators' ids")
    const history = (await call(ALICE, 'GET', `${base}/history`)).json()
    t.equal(history.total, historyBefore.total, 'the history keeps its entries')
    t.same(
      history.data.map((e: any) => [e.version, e.governance_status, e.risk_level]),
      historyBefore.data.map((e: any) => [e.version, e.governance_status, e.risk_level]),
      'their versions, states and risks',
    )
    const token = /^\[erased:\d+\]$/
    t.match(history.data[0], { change_control: { change_ref: token, reason: token } })
    const review = await svc.db
      .selectFrom('config_verifications')
      .select(['notes', 'evidence', 'status'])
      .where('tenant_id', '=', 'acme')
      .executeTakeFirstOrThrow()
    t.match(review, { notes: ERASED_TEXT, status: 'passed' })
    t.same(fromJson(review.evidence, []), [ERASED_TEXT], 'evidence tombstoned, its count kept')
    t.match((await call(ALICE, 'GET', base)).json(), { config: {}, version: 2 })
    const pending = (await call(ALICE, 'GET', `${base}/pending`)).json()
    t.equal(pending.data.filter((p: any) => p.status === 'pending').length, 0, 'nothing left waiting')
    t.equal((await call(ALICE, 'GET', '/api/apps/integrations')).json().total, 0)
  })

  t.test('another tenant keeps everything', async (t) => {
    t.equal((await holding(svc.db, 'MARKG')).length, 3, 'its document, history entry and integration')
    t.match((await call(GLOBEX, 'GET', base)).json(), { config: { portal: { brand_name: 'Brand MARKG' } } })
  })

  t.test('a second delivery is skipped; a later erasure of another tenant still reports', async (t) => {
    await svc.bus.publish(erasure.type, erasure, { msgId: `${erasure.id}-again` })
    const other = erasureOf('initech')
    await svc.bus.publish(other.type, other)
    await waitFor(() => reports.some((r) => r.tenant_id === 'initech'))
    t.equal(reports.filter((r) => r.tenant_id === 'acme').length, 1, 'acme reported once')
    t.match(
      reports.find((r) => r.tenant_id === 'initech'),
      { counts: { configs_emptied: 0, integrations_deleted: 0 } },
    )
  })
})
