// GET /api/system/health reads each replica's /metrics as well as its /ready: real small HTTP servers stand in for
// the units, exposing prom-client registries like the units' (default metrics, the HTTP histogram, the bus counters,
// the unit-specific gauges), and broken ones (500, not an exposition, no answer in time, nothing listening). A
// broken scrape is shown on its replica, never a 500; the figures are the stand-in's own numbers.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import t, { type Test } from 'tap'
import { parseExposition } from '../src/readiness-exposition.ts'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'
import { deadUrl } from './fixtures/upstream.ts'

type Handler = (path: string) => Promise<{ status: number; body: string } | null>

async function standIn(t: Test, metrics: Handler): Promise<string> {
  const server: Server = createServer(async (req, res) => {
    if (req.url === '/ready')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}')
    const answer = await metrics(req.url ?? '')
    if (answer === null) return // never answered: the gateway's timeout decides
    res.writeHead(answer.status, { 'content-type': 'text/plain; version=0.0.4' }).end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => {}))
  t.teardown(() => server.closeAllConnections())
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A registry shaped like a unit's (packages/platform metrics, packages/events counters, the unit's own). */
function unitRegistry(service: string) {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'h',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  const published = new Counter({
    name: 'eventbus_published_total',
    help: 'p',
    labelNames: ['subject_root'],
    registers: [registry],
  })
  const failed = new Counter({
    name: 'eventbus_failed_total',
    help: 'f',
    labelNames: ['consumer'],
    registers: [registry],
  })
  const dead = new Counter({
    name: 'eventbus_dead_letters_total',
    help: 'd',
    labelNames: ['consumer'],
    registers: [registry],
  })
  const start = new Gauge({ name: 'process_start_time_seconds', help: 's', registers: [registry] })
  const rss = new Gauge({ name: 'process_resident_memory_bytes', help: 'r', registers: [registry] })
  const lag = new Gauge({ name: 'nodejs_eventloop_lag_p99_seconds', help: 'l', registers: [registry] })
  return { registry, http, published, failed, dead, start, rss, lag }
}

t.test('figures per replica from /metrics; broken scrapes shown on their replica', async (t) => {
  const startedAt = Math.floor(Date.now() / 1000) - 3600
  const stats = unitRegistry('statistics')
  stats.start.set(startedAt)
  stats.rss.set(123_456_789)
  stats.lag.set(0.0125)
  for (let i = 0; i < 7; i++)
    stats.http.observe({ method: 'GET', route: '/api/statistics/dashboard', status: '200' }, 0.01)
  stats.http.observe({ method: 'GET', route: '/api/statistics/dashboard', status: '503' }, 0.01)
  stats.http.observe({ method: 'POST', route: '/api/statistics/x', status: '500' }, 0.01)
  for (let i = 0; i < 40; i++) stats.http.observe({ method: 'GET', route: '/ready', status: '200' }, 0.001)
  stats.published.inc({ subject_root: 'statistics' }, 3)
  stats.published.inc({ subject_root: 'audit' }, 2)
  stats.failed.inc({ consumer: 'statistics-tickets' }, 4)
  stats.dead.inc({ consumer: 'statistics-tickets' }, 1)
  const lagGauge = new Gauge({
    name: 'stats_projection_lag_seconds',
    help: 'lag',
    labelNames: ['projection'],
    registers: [stats.registry],
  })
  lagGauge.set({ projection: 'statistics-tickets' }, 42)
  lagGauge.set({ projection: 'statistics-ai' }, 0)

  const conv = unitRegistry('conversations')
  new Gauge({ name: 'conversations_waiting_sessions', help: 'w', registers: [conv.registry] }).set(5)
  const hub = unitRegistry('realtime-voice')
  const sockets = new Gauge({
    name: 'realtime_hub_sockets',
    help: 's',
    labelNames: ['kind'],
    registers: [hub.registry],
  })
  sockets.set({ kind: 'console' }, 3)
  sockets.set({ kind: 'visitor' }, 11)
  const ai = unitRegistry('ai-orchestrator')
  const breaker = new Gauge({
    name: 'ai_circuit_breaker_state',
    help: 'b',
    labelNames: ['breaker'],
    registers: [ai.registry],
  })
  breaker.set({ breaker: 'primary' }, 2)
  breaker.set({ breaker: 'llm' }, 1)
  breaker.set({ breaker: 'compatibility' }, 0)

  const serve = (registry: Registry) => async () => ({ status: 200, body: await registry.metrics() })
  const statsUrl = await standIn(t, serve(stats.registry))
  const convUrl = await standIn(t, serve(conv.registry))
  const hubUrl = await standIn(t, serve(hub.registry))
  const aiUrl = await standIn(t, serve(ai.registry))
  const failing = await standIn(t, async () => ({ status: 500, body: 'boom' }))
  const garbage = await standIn(t, async () => ({ status: 200, body: 'this is { not an exposition' }))
  const silent = await standIn(t, () => new Promise(() => {}))
  const dead = await deadUrl()

  const h = await harness(t)
  const h2 = await harness(t, {
    upstream: h.upstream,
    env: {
      UPSTREAM_STATISTICS: `${statsUrl},${failing}`,
      UPSTREAM_CONVERSATIONS: `${convUrl},${garbage}`,
      UPSTREAM_REALTIME_VOICE: hubUrl,
      UPSTREAM_AI_ORCHESTRATOR: `${aiUrl},${silent}`,
      UPSTREAM_AUDIT: dead,
      READY_TIMEOUT_MS: '400',
    },
  })
  const admin = await accessToken(
    seedUser(h2, { claims: { roles: ['admin'], tenant_id: '', workspace_id: '', admin_reach: 'platform' } }),
  )
  const ask = async () => {
    const res = await h2.app.inject({ method: 'GET', url: '/api/system/health', headers: bearer(admin) })
    t.equal(res.statusCode, 200, res.body)
    return Object.fromEntries(res.json().units.map((u: any) => [u.unit, u]))
  }
  const first = await ask()

  const [s1, s2] = first.statistics.instances
  t.match(s1, { replica: 1, ready: true, metrics_error: null })
  t.match(s1.metrics, {
    started_at: new Date(startedAt * 1000).toISOString(),
    resident_memory_bytes: 123_456_789,
    event_loop_lag_p99_seconds: 0.0125,
    http_requests_total: 9,
    http_5xx_total: 2,
    http_requests_per_second: null,
    http_5xx_per_second: null,
    events_published_total: 5,
    events_failed_total: 4,
    events_dead_lettered_total: 1,
    projection_lag_seconds: { 'statistics-tickets': 42, 'statistics-ai': 0 },
  })
  t.ok(Math.abs(s1.metrics.uptime_seconds - 3600) <= 5, `uptime about an hour (${s1.metrics.uptime_seconds})`)
  t.notOk('waiting_sessions' in s1.metrics, 'no figure a unit does not export')
  t.same(s2, { replica: 2, ready: true, metrics: null, metrics_error: 'http 500' }, 'a failing /metrics')
  t.equal(first.statistics.replicas_ready, 2, 'readiness is not the scrape')

  t.equal(first.conversations.instances[0].metrics.waiting_sessions, 5)
  t.same(first.conversations.instances[1], { replica: 2, ready: true, metrics: null, metrics_error: 'unreadable' })
  t.same(first['realtime-voice'].instances[0].metrics.hub_sockets, { console: 3, visitor: 11 })
  t.same(first['ai-orchestrator'].instances[0].metrics.breakers, {
    primary: 'open',
    llm: 'half-open',
    compatibility: 'closed',
  })
  t.match(first['ai-orchestrator'].instances[1], { replica: 2, metrics: null, metrics_error: 'timeout' })
  t.same(first.audit.instances, [{ replica: 1, ready: false, metrics: null, metrics_error: 'unreachable' }])
  // the harness's identity stand-in echoes any path as JSON: a 200 that is no exposition
  t.match(first.identity.instances[0], { ready: true, metrics: null, metrics_error: 'unreadable' })

  // more traffic, then the rate since this gateway's previous scrape
  for (let i = 0; i < 20; i++)
    stats.http.observe({ method: 'GET', route: '/api/statistics/dashboard', status: '200' }, 0.01)
  stats.http.observe({ method: 'GET', route: '/api/statistics/dashboard', status: '502' }, 0.01)
  const second = (await ask()).statistics.instances[0].metrics
  t.equal(second.http_requests_total, 30)
  t.equal(second.http_5xx_total, 3)
  t.ok(second.http_requests_per_second > 0, `a request rate (${second.http_requests_per_second}/s)`)
  t.ok(second.http_5xx_per_second > 0 && second.http_5xx_per_second < second.http_requests_per_second, '5xx rate')
  t.equal(
    Math.round((second.http_requests_per_second / second.http_5xx_per_second) * 1000) / 1000,
    21,
    '21 requests for each 5xx since the last scrape',
  )

  stats.http.reset() // a restarted replica: counters back at 0, no rate rather than a negative one
  const third = (await ask()).statistics.instances[0].metrics
  t.equal(third.http_requests_total, 0)
  t.equal(third.http_requests_per_second, null)
})

t.test('the exposition reader: labels with escapes, special values, timestamps; garbage refused', async (t) => {
  const samples = parseExposition(
    [
      '# HELP x a help line with "quotes"',
      '# TYPE x counter',
      'x{a="b\\"c",d="e\\\\f",g="h\\ni", j = "k,}"} 3 1700000000000',
      'y +Inf',
      'z{} NaN',
      'w 1.5e3',
      '',
    ].join('\n'),
  )
  t.same(samples[0], { name: 'x', labels: { a: 'b"c', d: 'e\\f', g: 'h\ni', j: 'k,}' }, value: 3 })
  t.equal(samples[1]?.value, Number.POSITIVE_INFINITY)
  t.ok(Number.isNaN(samples[2]?.value))
  t.equal(samples[3]?.value, 1500)
  // prom-client writes a summary's NaN as `Nan` (the event-loop lag's mean before its first tick); Prometheus reads
  // values with Go's ParseFloat, whose special values are case-insensitive
  const special = parseExposition(['m{service="identity"} Nan', 'n -inf', 'o +Infinity', 'p nan'].join('\n'))
  t.ok(Number.isNaN(special[0]?.value), 'Nan')
  t.same(
    special.slice(1, 3).map((s) => s.value),
    [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
  )
  t.ok(Number.isNaN(special[3]?.value), 'nan')
  t.throws(() => parseExposition('x{a="b} 1'), 'an unterminated label')
  t.throws(() => parseExposition('x one'), 'a value that is no number')
  t.throws(() => parseExposition('{a="b"} 1'), 'no name')
})
