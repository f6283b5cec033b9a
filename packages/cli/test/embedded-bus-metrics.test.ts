// The embedded default's one in-process bus counts into each unit's own /metrics, as each fleet replica's own bus
// does: a publish on the unit that published it (once: no other unit's counter moves), a durable's failures, poison
// messages and dead letters on the unit that consumes it. Real units on SQLite, a real write through the gateway.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { createRootLogger } from '@switchboard/platform'
import { waitFor } from '@switchboard/testing'
import t from 'tap'
import { startEmbedded } from '../src/embedded.ts'

const UNITS = ['identity', 'tickets', 'audit'] as const

/** `name`'s samples in one unit's /metrics, by their `label`'s value (each also carries the unit's `service`). */
async function counters(url: string, name: string, label: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const out = new Map<string, number>()
  for (const m of text.matchAll(/^([a-z_]+)\{([^}]*)\} (\S+)$/gm)) {
    if (m[1] !== name) continue
    const value = new RegExp(`${label}="([^"]*)"`).exec(m[2]!)?.[1]
    if (value !== undefined) out.set(value, Number(m[3]))
  }
  return out
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((n, v) => n + v, 0)

t.test('embedded: each unit’s /metrics counts its own bus traffic', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'embedded-bus-metrics-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const system = await startEmbedded({
    port: 0,
    dataDir,
    services: [...UNITS],
    env: {
      JWT_SECRET: 'embedded-bus-metrics-jwt-secret-0123456789abcdef',
      INTERNAL_SECRET: 'embedded-bus-metrics-internal-secret-0123456789',
      ADMIN_PASSWORD: 'Admin-password-0123456789',
      AGENT_PASSWORD: 'Agent-password-0123456789',
      ARGON2_MEMORY_COST_KIB: '1024',
      ARGON2_TIME_COST: '1',
      DEMO_SITE: 'false',
    },
    logger: createRootLogger({ level: 'silent' }),
  })
  t.teardown(() => system.close())
  const url = (unit: string) => system.serviceUrls[unit]!
  const published = (unit: string) => counters(url(unit), 'eventbus_published_total', 'subject_root')
  const identityRoot = async (unit: string) => (await published(unit)).get('identity') ?? 0

  // a real write: a customer registers through the gateway; identity publishes (its outbox relay) identity.* events
  const before = await identityRoot('identity')
  const username = `metrics_${Date.now()}`
  const res = await fetch(`${system.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Pw-0123456789-abc', name: 'M' }),
  })
  const body = await res.text()
  t.equal(res.status, 201, res.status === 201 ? 'registered' : body)
  await waitFor(async () => (await identityRoot('identity')) > before, 10_000)
  t.ok((await identityRoot('identity')) > before, 'identity counted what it published')

  // counted once, on the publisher: the sum over every unit is what the IDENTITY stream holds
  let inStream = 0
  await system.bus.replay('IDENTITY', {}, async () => {
    inStream++
  })
  const all = await Promise.all([
    ...UNITS.map(identityRoot),
    counters(system.url, 'eventbus_published_total', 'subject_root'),
  ])
  t.same(all.slice(1), [0, 0, new Map()], 'tickets, audit and the gateway published no identity event')
  t.equal(all[0], inStream, `identity's count (${all[0]}) is every message of the IDENTITY stream`)

  // a consumer's failure counts on the unit that consumes: an audit record off its contract, published by the runner
  // (its bus counts into no unit), is poison to audit's recorder and dead-lettered at once
  const failed = () => counters(url('audit'), 'eventbus_failed_total', 'consumer')
  const key = 'audit-recorder'
  const failedBefore = (await failed()).get(key) ?? 0
  const bad = newEnvelope({
    type: AUDIT_RECORDED_TYPE,
    tenant_id: 'acme',
    workspace_id: 'main',
    actor: { user_id: 'svc', kind: 'service' },
    data: { not: 'an audit record' },
  })
  await system.bus.publish('audit.record.recorded', bad)
  await waitFor(async () => ((await failed()).get(key) ?? 0) > failedBefore, 10_000)
  t.equal((await failed()).get(key), failedBefore + 1, 'audit: one failure of its recorder')
  t.equal((await counters(url('audit'), 'eventbus_poison_total', 'consumer')).get(key), 1, 'audit: poison')
  t.equal((await counters(url('audit'), 'eventbus_dead_letters_total', 'consumer')).get(key), 1, 'audit: dead-lettered')
  for (const unit of ['identity', 'tickets']) {
    t.equal(
      sum(await counters(url(unit), 'eventbus_dead_letters_total', 'consumer')),
      0,
      `${unit}: no dead letter of audit's`,
    )
  }
  t.equal(
    sum(await counters(url('identity'), 'eventbus_failed_total', 'consumer')),
    0,
    'identity: no failure of audit’s',
  )
  t.ok((await system.bus.deadLetters({ consumer: 'audit-recorder' })).length === 1, 'the dead letter itself')
})
