// Operations end to end, in both run modes: rate limiting at the gateway, the dead-letter path — an audit
// consumer that really fails (its table is gone), the event parked as a dead letter, `switchboard dlq replay`
// delivering it once the consumer works again —, and the health route's figures from each replica's /metrics.
import { randomBytes } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import t from 'tap'
import { login } from './harness/auth.ts'
import { switchboard } from './harness/cli.ts'
import { auditedCustomer, parkAuditTable } from './harness/dead-letters.ts'
import { client, type Reply, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { LIMITED_HEADER, LIMITED_PER_MINUTE } from './harness/system.ts'

// both run modes, the fleet started here, dead letters made and replayed through the CLI: past tap's 120 s per file
t.setTimeout(300_000)

// The audit consumer runs with the bus defaults (5 deliveries, nak delays 0.2, 1, 5, 15 s): the dead letter
// appears about 21 s after the write.
const DEAD_LETTER_WAIT_MS = 60_000

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}
interface Scrape {
  one(name: string): number
  sum(name: string, keep?: (s: Sample) => boolean): number
}

/** A unit replica's /metrics read here on its own (label values without commas or escaped quotes suffice). */
async function scrape(url: string): Promise<Scrape> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const samples: Sample[] = []
  for (const m of text.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/gm)) {
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]))
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  const of = (name: string) => samples.filter((s) => s.name === name)
  return {
    one: (name) => of(name)[0]?.value ?? Number.NaN,
    sum: (name, keep = () => true) =>
      of(name)
        .filter(keep)
        .reduce((n, s) => n + s.value, 0),
  }
}

async function scrapeAll(urls: Record<string, string[]>): Promise<Record<string, Scrape[]>> {
  const entries = await Promise.all(
    Object.entries(urls).map(async ([unit, list]) => [unit, await Promise.all(list.map(scrape))] as const),
  )
  return Object.fromEntries(entries)
}

inEachMode('operations', { liveTimeoutMs: 240_000 }, async (t, system) => {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)

  t.test('429 with Retry-After once a limit is spent', async (t) => {
    const bucket = { [LIMITED_HEADER]: `bucket-${suffix}` }
    const statuses: number[] = []
    let limited: Reply | undefined
    // Fixed windows: if one rolls over mid-test the budget refills once, hence up to two budgets' worth.
    for (let i = 0; i < 2 * LIMITED_PER_MINUTE + 1 && !limited; i++) {
      const res = await api.get('/api/tickets', { token: agent.token, headers: bucket })
      statuses.push(res.status)
      if (res.status === 429) limited = res
    }
    t.same(statuses.slice(0, LIMITED_PER_MINUTE), Array(LIMITED_PER_MINUTE).fill(200), 'within the limit')
    t.ok(limited, `429 once the budget of ${LIMITED_PER_MINUTE} is spent (statuses ${statuses.join(' ')})`)
    t.ok(Number(limited?.headers.get('retry-after')) > 0, 'Retry-After')
    t.equal(limited?.body.code, 'RATE_LIMITED')
    const other = await api.get('/api/tickets', {
      token: agent.token,
      headers: { [LIMITED_HEADER]: `other-${suffix}` },
    })
    t.equal(other.status, 200, 'another key has its own budget')
    t.equal(
      (await api.get('/api/tickets', { token: agent.token })).status,
      200,
      'requests without the key are not limited by it',
    )
    const metrics = await api.get('/metrics')
    t.match(metrics.text, /^gateway_rate_limit_dropped_total\{[^}]*\} [1-9]/m, 'drops are counted')
  })

  t.test('a failing audit consumer dead-letters the event; dlq replay delivers it once fixed', async (t) => {
    // The ticket's customer is a real one, known to tickets before the audit table goes: its first ticket waited
    // for identity's event, so the one below is accepted at once; their audit records are in before the table goes,
    // so that the one below is the only dead letter.
    const tokens = { admin: admin.token, agent: agent.token }
    const customer = await auditedCustomer(t, api, tokens, `ops_cust_${suffix}`, suffix)
    const restore = await parkAuditTable(t, system, suffix)

    const created = await api.post(
      '/api/tickets',
      { title: `Dead letter ${suffix}`, customer_id: customer.user_id },
      { token: agent.token },
    )
    t.equal(created.status, 201, created.text)
    const id = created.body.id as string
    const isOurs = (d: any) => d.envelope?.data?.resource_id === id && d.envelope?.data?.action === 'tickets.create'

    const dlqArgs = system.dlqArgs(admin.token)
    const letter = await until(
      'the audit record in the dead-letter stream',
      async () => {
        const { stdout } = await switchboard(['dlq', 'list', '--json', ...dlqArgs])
        return (JSON.parse(stdout).items as any[]).find(isOurs)
      },
      DEAD_LETTER_WAIT_MS,
      1000,
    )
    t.match(letter.error, /audit_logs|no such table|does not exist/i, 'the real failure is recorded')
    t.ok(letter.deliveries >= 1)
    const before = await api.get(`/api/audit/logs?action=tickets.create`, { token: admin.token })
    t.notOk(
      (before.body.data ?? []).some((r: any) => r.resource_id === id),
      'not in the audit log while the consumer fails',
    )

    await restore()
    const replay = await switchboard(['dlq', 'replay', '--seq', String(letter.seq), ...dlqArgs])
    t.match(replay.stdout, /replayed 1 dead letter/)
    const record = await until('the replayed audit record', async () => {
      const res = await api.get(`/api/audit/logs?action=tickets.create`, { token: admin.token })
      return (res.body.data as any[]).find((r) => r.resource_id === id)
    })
    t.equal(record.success, true)
    const { stdout } = await switchboard(['dlq', 'list', '--json', ...dlqArgs])
    t.notOk((JSON.parse(stdout).items as any[]).some(isOurs), 'no longer a dead letter')
    const again = await api.get(`/api/audit/logs?action=tickets.create`, { token: admin.token })
    t.equal((again.body.data as any[]).filter((r) => r.resource_id === id).length, 1, 'delivered exactly once')
  })

  t.test("the health page's figures are each replica's own /metrics, read between two direct scrapes", async (t) => {
    const before = await scrapeAll(system.serviceUrls)
    const res = await api.get('/api/system/health', { token: admin.token })
    t.equal(res.status, 200, res.text)
    const after = await scrapeAll(system.serviceUrls)
    const units = res.body.units as any[]
    t.same(units.map((u) => u.unit).sort(), Object.keys(system.serviceUrls).sort(), 'every unit')
    for (const u of units) {
      t.equal(u.instances.length, system.serviceUrls[u.unit]?.length, `${u.unit}: one entry per replica`)
      u.instances.forEach((r: any, i: number) => {
        const name = `${u.unit} #${r.replica}`
        const [b, a] = [before[u.unit]![i]!, after[u.unit]![i]!]
        t.equal(r.metrics_error, null, `${name}: scraped`)
        const m = r.metrics
        t.equal(m.started_at, new Date(a.one('process_start_time_seconds') * 1000).toISOString(), `${name} start`)
        t.ok(m.uptime_seconds >= 0 && m.resident_memory_bytes > 0, `${name}: uptime and memory`)
        t.ok(m.event_loop_lag_p99_seconds >= 0, `${name}: event-loop lag`)
        const served = (s: Sample) => !['/health', '/ready', '/metrics'].includes(s.labels.route ?? '')
        const sandwich = (key: string, figure: number, count: (x: Scrape) => number) =>
          t.ok(count(b) <= figure && figure <= count(a), `${name} ${key}: ${count(b)} ≤ ${figure} ≤ ${count(a)}`)
        sandwich('requests', m.http_requests_total, (x) => x.sum('http_request_duration_seconds_count', served))
        sandwich('5xx', m.http_5xx_total, (x) =>
          x.sum('http_request_duration_seconds_count', (s) => served(s) && s.labels.status!.startsWith('5')),
        )
        sandwich('published', m.events_published_total, (x) => x.sum('eventbus_published_total'))
        sandwich('failed', m.events_failed_total, (x) => x.sum('eventbus_failed_total'))
        sandwich('dead-lettered', m.events_dead_lettered_total, (x) => x.sum('eventbus_dead_letters_total'))
      })
    }
    const first = (unit: string) => units.find((u) => u.unit === unit).instances[0].metrics
    // The dead letter made above, in both modes: the audit unit counted its failures and the dead letter, tickets
    // its publishes (embedded: each unit's view of the one in-process bus counts into that unit's own /metrics).
    t.ok(first('audit').events_failed_total >= 1, `audit failures ${first('audit').events_failed_total}`)
    t.ok(first('audit').events_dead_lettered_total >= 1, 'audit dead letters')
    t.ok(first('tickets').events_published_total >= 1, 'tickets published events')
    // ... and nobody else: a unit that consumes no audit event counted none of its failures
    t.equal(first('tickets').events_dead_lettered_total, 0, 'tickets dead-lettered nothing')
    t.same(
      Object.keys(first('statistics').projection_lag_seconds).sort(),
      ['statistics-ai', 'statistics-conversations', 'statistics-identity', 'statistics-tickets'],
      'each statistics projection with its lag',
    )
    t.type(first('conversations').waiting_sessions, 'number', 'waiting sessions')
    t.same(Object.keys(first('realtime-voice').hub_sockets).sort(), ['console', 'customer', 'service', 'visitor'])
    t.same(
      first('ai-orchestrator').breakers,
      { primary: 'closed', compatibility: 'closed', llm: 'closed' },
      'the AI breakers, closed',
    )
    t.notOk('breakers' in first('tickets'), 'no unit-specific figure where the unit exports none')
    const again = await api.get('/api/system/health', { token: admin.token })
    for (const u of again.body.units as any[]) {
      for (const r of u.instances) {
        t.ok(r.metrics.http_requests_per_second >= 0, `${u.unit} #${r.replica}: a request rate on the second ask`)
      }
    }
  })

  t.test('the ops surface: admin or a service token holding *, nobody else', async (t) => {
    const env = system.env
    const { token: ops } = await mintServiceToken({ service: 'ops', permissions: ['*'], env })
    const { token: auditor } = await mintServiceToken({ service: 'auditor', permissions: ['audit.read'], env })
    for (const [who, token, status] of [
      ['admin', admin.token, 200],
      ['service with *', ops, 200],
      ['service with audit.read only', auditor, 403],
      ['agent', agent.token, 403],
    ] as const) {
      const res = await api.get('/api/ops/dead-letters', { token })
      t.equal(res.status, status, who)
      if (status === 200) t.match(res.body, { count: Number, items: Array })
    }
    t.equal((await api.get('/api/ops/dead-letters')).status, 401, 'anonymous')
    const replay = await api.post('/api/ops/dead-letters/replay', { seqs: [999_999] }, { token: ops })
    t.equal(replay.status, 200, replay.text)
    t.equal(replay.body.replayed, 0, 'an unknown sequence replays nothing')
    const audited = await until('the replay in the audit log', async () => {
      const res = await api.get('/api/audit/logs?action=ops.replay', { token: ops })
      return (res.body.data as any[] | undefined)?.find((r) => r.request_id === replay.headers.get('x-request-id'))
    })
    t.match(audited, { actor_user_id: 'service:ops', principal_kind: 'service', success: true, method: 'POST' })
  })

  t.test(
    'a tenant administrator holds * but is refused the ops surface; the demo (platform) admin is not',
    async (t) => {
      // Created by the demo admin in its workspace: an administrator of that tenant only.
      const password = `Pw-tadmin-${suffix}-0123456789`
      const created = await api.post(
        '/api/security/users',
        { username: `tadmin_${suffix}`, email: `tadmin_${suffix}@e2e.example.com`, role: 'admin', password },
        { token: admin.token },
      )
      t.equal(created.status, 201, created.text)
      t.equal(created.body.user.admin_tenant_id, system.tenant_id, 'a tenant administrator')
      const tenantAdmin = await login(api, `tadmin_${suffix}`, password)
      const claims = JSON.parse(Buffer.from(tenantAdmin.token.split('.')[1] ?? '', 'base64url').toString('utf8'))
      t.match(claims, { roles: ['admin'], permissions: ['*'], tenant_id: system.tenant_id })
      t.notOk('admin_reach' in claims, 'no platform claim')
      const adminClaims = JSON.parse(Buffer.from(admin.token.split('.')[1] ?? '', 'base64url').toString('utf8'))
      t.equal(adminClaims.admin_reach, 'platform', "the demo admin's token carries the platform claim")
      for (const [who, token, status] of [
        ['tenant admin', tenantAdmin.token, 403],
        ['demo admin', admin.token, 200],
      ] as const) {
        const list = await api.get('/api/ops/dead-letters', { token })
        t.equal(list.status, status, `${who}: dead letters ${list.text.slice(0, 200)}`)
        const health = await api.get('/api/system/health', { token })
        t.equal(health.status, status, `${who}: system health`)
        if (status === 403) {
          t.equal(list.body.code, 'PRINCIPAL_KIND_FORBIDDEN')
          t.equal(health.body.code, 'PRINCIPAL_KIND_FORBIDDEN')
          const replay = await api.post('/api/ops/dead-letters/replay', { seqs: [999_999] }, { token })
          t.equal(replay.status, 403, `${who}: replay`)
        }
      }
    },
  )
})
