import { ConfigEvents } from '@switchboard/contracts'
import type { EventBus } from '@switchboard/events'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, silentLogger, storageFixture, waitFor } from '@switchboard/testing'
import t from 'tap'
import { identity } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { sessionRiskChange } from '../../src/consumers/config-overrides.consumer.ts'
import type { IdentityService } from '../../src/context.ts'
import {
  createSessionRiskPolicySource,
  DEFAULT_SESSION_RISK_POLICY as D,
  type SessionRiskPolicy,
} from '../../src/domain/session-risk-policy.ts'
import { scopedSessionRiskOverrides } from '../../src/queries/session-risk-overrides.queries.ts'
import { identityApp, principalHeaders, TEST_ENV } from '../helpers/app.ts'
import { callers, createMember, login } from '../helpers/directory.ts'

const governance = { user_id: 'config-governance', kind: 'service' }
const ACME = { tenant_id: 'acme', workspace_id: 'support' }

/** A `config.scope.changed` as config-governance publishes it; `session_risk` undefined = no override there. */
function scopeChanged(
  scope: { tenant_id: string; workspace_id?: string },
  version: number,
  session_risk?: Partial<SessionRiskPolicy>,
) {
  const workspace_id = scope.workspace_id ?? ''
  const config: Record<string, unknown> = { portal: { title: 'Help' } }
  if (session_risk) config.session_risk = session_risk
  return newEnvelope({
    type: ConfigEvents.scopeChanged.type,
    tenant_id: scope.tenant_id,
    workspace_id,
    actor: governance,
    data: {
      scope: workspace_id ? ('workspace' as const) : ('tenant' as const),
      tenant_id: scope.tenant_id,
      workspace_id,
      version,
      change_id: `chg-${scope.tenant_id}-${workspace_id}-${version}`,
      operation: 'update' as const,
      changed_sections: ['session_risk'],
      config,
      secret_fingerprints: {},
      changed_at: new Date().toISOString(),
    },
  })
}

async function publish(bus: EventBus, ...events: ReturnType<typeof scopeChanged>[]) {
  for (const e of events) await bus.publish(e.type, e)
}

/** The projection row of a scope (or undefined). */
const storedRow = (svc: IdentityService, tenant_id: string, workspace_id = '') =>
  svc.db
    .selectFrom('scoped_session_risk')
    .selectAll()
    .where('tenant_id', '=', tenant_id)
    .where('workspace_id', '=', workspace_id)
    .executeTakeFirst()

t.test('sessionRiskChange: the section at the version; tenant rows keyed by ""; bad scopes are refused', async (t) => {
  const at = '2026-11-24T00:00:00.000Z'
  const ws = scopeChanged(ACME, 3, { high_risk_score: 2 }).data
  t.same(sessionRiskChange(ws, at), { ...ACME, policy: { high_risk_score: 2 }, version: 3, updated_at: at })
  const tenant = scopeChanged({ tenant_id: 'acme' }, 1).data
  t.same(sessionRiskChange({ ...tenant, workspace_id: 'ignored' }, at), {
    tenant_id: 'acme',
    workspace_id: '',
    policy: null,
    version: 1,
    updated_at: at,
  })
  t.equal(sessionRiskChange({ ...ws, workspace_id: '' }, at), undefined, 'a workspace change names its workspace')
  t.equal(sessionRiskChange({ ...ws, tenant_id: '' }, at), undefined)
  t.equal(sessionRiskChange({ ...ws, version: 0 }, at), undefined)
  t.equal(sessionRiskChange({ ...ws, scope: 'global' as never }, at), undefined)
  t.equal(sessionRiskChange({ ...ws, config: { session_risk: [1] } }, at)?.policy, null, 'not an object: none')
})

inEachStorageMode(t, 'session-risk overrides from config.scope.changed', async (t, mode) => {
  // SESSION_RISK_* is the system layer: a stored tenant/workspace override beats it.
  const { app, svc } = await identityApp(t, mode, { SESSION_RISK_HIGH_RISK_SCORE: '6' })
  const who = await callers()
  await createMember(app, who.acmeAdmin, 'Alice', 'acme.test')
  // one current session from a public address: public_network, score 1 — low by default
  const headers = await principalHeaders((await login(app, 'alice', 'laptop', '8.8.8.8')).token)
  const current = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/sessions', headers })
    if (res.statusCode !== 200) throw new Error(`GET /api/v1/auth/sessions: ${res.statusCode} ${res.body}`)
    const view = res.json().items.find((v: { is_current: boolean }) => v.is_current)
    return view as { risk_score: number; risk_level: string }
  }
  const level = (want: string) => waitFor(async () => ((await current()).risk_level === want ? want : undefined), 5000)
  /** a later event for another tenant, handled after everything published before it (one durable, in order) */
  let marks = 0
  const handledSoFar = async () => {
    const mark = `mark-${++marks}`
    await publish(svc.bus, scopeChanged({ tenant_id: mark }, 1))
    await waitFor(async () => (await storedRow(svc, mark)) ?? undefined, 5000)
  }

  t.match(await current(), { risk_score: 1, risk_level: 'low' })
  t.equal((await svc.riskPolicy.policyFor(ACME)).high_risk_score, 6, 'system config before any override')

  await t.test('a tenant override lowers high_risk_score: the session becomes high', async (t) => {
    await publish(svc.bus, scopeChanged({ tenant_id: 'acme' }, 1, { high_risk_score: 1 }))
    t.equal(await level('high'), 'high')
    t.match(await storedRow(svc, 'acme'), { workspace_id: '', version: 1 })
    const other = await svc.riskPolicy.policyFor({ tenant_id: 'acme', workspace_id: 'sales' })
    t.equal(other.high_risk_score, 1, "every workspace of the tenant gets the tenant's override")
    const globex = await svc.riskPolicy.policyFor({ tenant_id: 'globex', workspace_id: 'main' })
    t.equal(globex.high_risk_score, 6, 'another tenant keeps the system policy')
  })

  await t.test('the workspace override beats the tenant override, key by key', async (t) => {
    await publish(svc.bus, scopeChanged(ACME, 1, { high_risk_score: 3, medium_risk_score: 1 }))
    t.equal(await level('medium'), 'medium')
    const p = await svc.riskPolicy.policyFor(ACME)
    t.match(p, { high_risk_score: 3, medium_risk_score: 1, many_sessions_threshold: D.many_sessions_threshold })
    t.equal((await svc.riskPolicy.policyFor({ tenant_id: 'acme', workspace_id: 'sales' })).high_risk_score, 1)
    await publish(
      svc.bus,
      scopeChanged({ tenant_id: 'acme' }, 2, { high_risk_score: 1, stale_activity_window_days: 2 }),
    )
    await waitFor(async () => (await svc.riskPolicy.policyFor(ACME)).stale_activity_window_days === 2, 5000)
    t.match(await svc.riskPolicy.policyFor(ACME), { high_risk_score: 3, stale_activity_window_days: 2 }, 'merged')
  })

  await t.test('an older or repeated version is ignored', async (t) => {
    await publish(
      svc.bus,
      scopeChanged(ACME, 4, { high_risk_score: 3, medium_risk_score: 1 }),
      // out of order: 3 arrives after 4, and 4 again (a redelivery) with other numbers
      scopeChanged(ACME, 3, { high_risk_score: 1 }),
      scopeChanged(ACME, 4, { high_risk_score: 9 }),
      scopeChanged({ tenant_id: 'acme' }, 1, { high_risk_score: 8 }),
    )
    await handledSoFar()
    t.match(await storedRow(svc, 'acme', 'support'), { version: 4 })
    t.match(await storedRow(svc, 'acme'), { version: 2 })
    await new Promise((r) => setTimeout(r, 300)) // past every cached read
    t.match(await svc.riskPolicy.policyFor(ACME), { high_risk_score: 3, medium_risk_score: 1 })
    t.equal((await svc.riskPolicy.policyFor({ tenant_id: 'acme', workspace_id: 'x' })).high_risk_score, 1)
    t.equal((await current()).risk_level, 'medium')
  })

  await t.test('a change without session_risk removes that scope’s override', async (t) => {
    await publish(svc.bus, scopeChanged(ACME, 5))
    t.equal(await level('high'), 'high', "the workspace's override gone: the tenant's applies again")
    t.match(await storedRow(svc, 'acme', 'support'), { version: 5, policy: null })
    await publish(svc.bus, scopeChanged({ tenant_id: 'acme' }, 3))
    t.equal(await level('low'), 'low', 'no override left: the system policy')
    t.same(await svc.riskPolicy.policyFor(ACME), await svc.riskPolicy.policyFor({ tenant_id: '', workspace_id: '' }))
  })

  await t.test('runtime beats the stored overrides', async (t) => {
    await publish(svc.bus, scopeChanged(ACME, 6, { high_risk_score: 1, medium_risk_score: 1 }))
    await level('high')
    const source = createSessionRiskPolicySource({
      session_risk: { high_risk_score: 6 },
      environment: 'test',
      overrides: scopedSessionRiskOverrides(svc.db),
      runtime: { high_risk_score: 5 },
    })
    t.match(await source.policyFor(ACME), { high_risk_score: 5, medium_risk_score: 1 }, 'the rest stays stored')
  })

  await t.test('an unreadable store: the system policy, and the failure is not cached', async (t) => {
    const errors: unknown[] = []
    const source = createSessionRiskPolicySource({
      session_risk: { high_risk_score: 6 },
      environment: 'test',
      overrides: scopedSessionRiskOverrides(svc.db.withSchema('no_such_schema')),
      onError: (err) => errors.push(err),
    })
    t.equal((await source.policyFor(ACME)).high_risk_score, 6)
    t.equal((await source.policyFor(ACME)).high_risk_score, 6)
    t.equal(errors.length, 2, 'each call asked the store again')
  })
})

t.test('the overrides cache: per scope, at most 250 ms, a failure never cached', async (t) => {
  const { svc } = await identityApp(t, 'sqlite')
  let clock = 1_000
  const overrides = scopedSessionRiskOverrides(svc.db, { cacheMs: 10_000, now: () => clock })
  const write = (version: number, high_risk_score: number) =>
    svc.db
      .insertInto('scoped_session_risk')
      .values({ ...ACME, policy: JSON.stringify({ high_risk_score }), version, updated_at: new Date().toISOString() })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'workspace_id']).doUpdateSet({ policy: JSON.stringify({ high_risk_score }), version }),
      )
      .execute()
  t.equal(await overrides(ACME), undefined, 'nothing stored')
  await write(1, 2)
  t.equal(await overrides(ACME), undefined, 'cached')
  t.same(await overrides({ ...ACME, workspace_id: 'other' }), undefined, 'another scope reads on its own')
  clock += 250
  t.same(await overrides(ACME), { high_risk_score: 2 }, 'cacheMs is capped at 250')
  await write(2, 3)
  const [a, b] = await Promise.all([overrides(ACME), overrides(ACME)])
  t.same([a, b], [{ high_risk_score: 2 }, { high_risk_score: 2 }])
  clock += 249
  t.same(await overrides(ACME), { high_risk_score: 2 })
  clock += 1
  t.same(await overrides(ACME), { high_risk_score: 3 })
  const uncached = scopedSessionRiskOverrides(svc.db, { cacheMs: 0 })
  await write(3, 4)
  t.same(await uncached(ACME), { high_risk_score: 4 })
})

t.test('two replicas on one database: a change is effective on both within 1 s (postgres)', async (t) => {
  const store = await storageFixture(t, 'postgres', 'id')
  const config = { ...loadConfig(TEST_ENV), port: 0, database: store.database, cache: store.cache, bus: store.bus }
  const replicas: IdentityService[] = []
  for (let i = 0; i < 2; i++) {
    const app = await identity.build(config, { logger: silentLogger() })
    t.teardown(() => app.close())
    await app.ready()
    replicas.push(identity.contextOf(app))
  }
  const [one, two] = replicas as [IdentityService, IdentityService]
  for (let round = 1; round <= 3; round++) {
    // both replicas hold a cached read of the scope when the change arrives
    const before = await Promise.all(replicas.map((r) => r.riskPolicy.policyFor(ACME)))
    t.ok(before.every((p) => p.high_risk_score !== round))
    const started = Date.now()
    await publish((round % 2 ? one : two).bus, scopeChanged(ACME, round, { high_risk_score: round }))
    const elapsed = await Promise.all(
      replicas.map((r) =>
        waitFor(async () => ((await r.riskPolicy.policyFor(ACME)).high_risk_score === round ? Date.now() : false)),
      ),
    )
    for (const [i, at] of elapsed.entries()) {
      t.ok(at - started < 1000, `round ${round}: replica ${i + 1} after ${at - started} ms`)
    }
  }
})
