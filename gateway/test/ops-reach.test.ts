// The ops surface (the whole bus's dead letters, the units' health) is every tenant's: a tenant administrator holds
// `*` but not the platform claim, so it is refused like an agent; a platform admin's token carries
// `admin_reach: 'platform'` whatever its scope and is admitted; a token without the claim (minted before it) is not.
import { newEnvelope } from '@switchboard/events'
import t from 'tap'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'

t.test('tenant admin refused on list, replay and health; platform admin admitted', async (t) => {
  const h = await harness(t)
  await h.bus.ensureStreams([{ name: 'AUDIT', subjects: ['audit.>'] }])
  const failing = await h.bus.consume(
    { durable: 'c_reach', stream: 'AUDIT', maxDeliver: 1, backoffMs: [10] },
    async () => {
      throw new Error('cannot store')
    },
  )
  t.teardown(() => failing.stop())
  await h.bus.publish(
    'audit.record.recorded',
    newEnvelope({
      type: 'audit.record.recorded',
      tenant_id: 'other',
      workspace_id: 'w',
      actor: { user_id: 'u', kind: 'service' },
      data: { secret: 'of another tenant' },
    }) as never,
  )
  const deadline = Date.now() + 10_000
  while ((await h.bus.deadLetters()).length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  t.equal((await h.bus.deadLetters()).length, 1, 'one dead letter')
  await failing.stop()

  const json = { 'content-type': 'application/json' }
  const call = (token: string, what: 'list' | 'replay' | 'health') =>
    h.app.inject(
      what === 'list'
        ? { method: 'GET', url: '/api/ops/dead-letters', headers: bearer(token) }
        : what === 'health'
          ? { method: 'GET', url: '/api/system/health', headers: bearer(token) }
          : {
              method: 'POST',
              url: '/api/ops/dead-letters/replay',
              headers: { ...bearer(token), ...json },
              payload: '{}',
            },
    )

  const tenantAdmin = await accessToken(
    seedUser(h, { claims: { roles: ['admin'], permissions: ['*'], tenant_id: 'acme', workspace_id: '' } }),
  )
  const stale = await accessToken(seedUser(h, { claims: { roles: ['admin'], tenant_id: '', workspace_id: '' } }))
  for (const [name, token] of [
    ['tenant admin', tenantAdmin],
    ['platform admin token without the claim', stale],
  ] as const) {
    for (const what of ['list', 'replay', 'health'] as const) {
      const res = await call(token, what)
      t.equal(res.statusCode, 403, `${name}: ${what} refused`)
      t.equal(res.json().code, 'PRINCIPAL_KIND_FORBIDDEN', `${name}: ${what} the agent's refusal`)
      t.notMatch(res.body, /of another tenant/, 'no payload leaks')
    }
  }
  t.equal((await h.bus.deadLetters()).length, 1, 'the refused replay replayed nothing')

  // A platform admin with one binding gets a token scoped to that workspace, and the claim with it.
  const platform = await accessToken(
    seedUser(h, { claims: { roles: ['admin'], tenant_id: 'acme', workspace_id: 'support', admin_reach: 'platform' } }),
  )
  const list = await call(platform, 'list')
  t.equal(list.statusCode, 200, list.body)
  t.equal(list.json().count, 1, 'the platform admin sees the dead letter')
  const health = await call(platform, 'health')
  t.equal(health.statusCode, 200, health.body)
  const replay = await call(platform, 'replay')
  t.equal(replay.statusCode, 200, replay.body)
  t.same(replay.json(), { replayed: 1 })

  const service = await accessToken(
    seedUser(h, {
      claims: { roles: ['service'], principal_kind: 'service', permissions: ['*'], tenant_id: '', workspace_id: '' },
    }),
  )
  t.equal((await call(service, 'list')).statusCode, 200, 'a service principal holding * is admitted')
})
