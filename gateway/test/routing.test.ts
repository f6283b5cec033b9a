import { routeClass } from '@switchboard/auth'
import Fastify from 'fastify'
import t from 'tap'
import { Agent } from 'undici'
import { CLASS_PATTERNS } from '../src/routing/route-classes.ts'
import { createServiceTable, isCanonicalPath } from '../src/routing/service-table.ts'
import { classifyFailure, createUpstreamPool } from '../src/routing/upstream-pool.ts'

const { serviceFor } = createServiceTable({ '/api/probe': 'probe' })

t.test('service table: longest whole-segment prefix', async (t) => {
  const cases: [string, string | undefined][] = [
    ['/api/v1/auth/login', 'identity'],
    ['/api/security/users/1', 'identity'],
    ['/api/security/config/tenant', 'config-governance'],
    ['/api/agents', 'identity'],
    ['/api/customers/9/notes', 'identity'],
    ['/api/tickets/1', 'tickets'],
    ['/api/custom-fields', 'tickets'],
    ['/api/sla/configs', 'tickets'],
    ['/api/satisfactions', 'tickets'],
    ['/public/csat/abc', 'tickets'],
    ['/csat/abc', 'tickets'],
    ['/help/acme/support/articles/1', 'ai-orchestrator'],
    ['/helpdesk', undefined],
    ['/api/audit/logs/export', 'audit'],
    ['/public/kb/search', 'ai-orchestrator'],
    ['/api/v1/ws/stats', 'realtime-voice'],
    // the ownership table of docs/architecture.md §1
    ['/api/macros/1', 'tickets'],
    ['/api/assist/suggest', 'ai-orchestrator'],
    ['/uploads/a.png', 'conversations'],
    ['/api/v1/metrics/ingest', 'statistics'],
    ['/public/portal/acme', 'config-governance'],
    // the chat widget's public paths, split between two owners (issue 21)
    ['/public/widget/tickets', 'tickets'],
    ['/public/widget/availability', 'conversations'],
    ['/public/widget/sessions/s-1/satisfaction', 'conversations'],
    ['/public/widget', undefined],
    ['/api/probe/1', 'probe'],
    ['/api/slack', undefined],
    ['/api/ticketsx', undefined],
    ['/public', undefined],
    ['/', undefined],
  ]
  for (const [path, service] of cases) t.equal(serviceFor(path), service, path)
})

t.test("service table: a :param segment routes one route of a unit under another unit's prefix", async (t) => {
  const cases: [string, string | undefined][] = [
    // conversations owns routing and sessions; identity keeps the rest of /api/agents and /api/customers
    ['/api/agents/find-available', 'conversations'],
    ['/api/agents/find-available/x', 'conversations'],
    ['/api/agents/0193abc/assign-session', 'conversations'],
    ['/api/agents/0193abc/release-session', 'conversations'],
    ['/api/customers/c-1/activity', 'conversations'],
    ['/api/agents/0193abc', 'identity'],
    ['/api/agents/0193abc/online', 'identity'],
    ['/api/agents/0193abc/assign-sessionx', 'identity'],
    ['/api/agents/assign-session', 'identity'],
    ['/api/agents/find-availablex', 'identity'],
    ['/api/customers/c-1', 'identity'],
    ['/api/customers/c-1/notes', 'identity'],
    ['/api/customers/activity', 'identity'],
    ['/api/omni/sessions', 'conversations'],
  ]
  for (const [path, service] of cases) t.equal(serviceFor(path), service, path)
})

t.test('service table: the most specific pattern wins whatever the order it was listed in', async (t) => {
  const table = createServiceTable({
    '/x/:a/y': 'param',
    '/x/lit/y': 'literal',
    '/x': 'short',
    '/x/:a/y/z': 'deeper',
    '/p/:a': 'param-only',
  })
  t.equal(table.serviceFor('/x/lit/y'), 'literal', 'a literal segment beats a :param at the same depth')
  t.equal(table.serviceFor('/x/other/y'), 'param')
  t.equal(table.serviceFor('/x/lit/y/z'), 'deeper', 'more segments beat fewer')
  t.equal(table.serviceFor('/x/other'), 'short')
  t.equal(table.serviceFor('/x'), 'short')
  t.equal(table.serviceFor('/p/1'), 'param-only')
  t.equal(table.serviceFor('/p'), undefined, 'a :param needs its segment')
  t.equal(table.serviceFor('/p/'), undefined, 'an empty segment is no value')
  t.equal(table.serviceFor('x/lit/y'), undefined, 'a path starts with /')
})

t.test('canonical paths', async (t) => {
  for (const p of ['/api/tickets/1', '/api/customers/a%40b.c', '/public/kb/%E4%B8%AD']) t.ok(isCanonicalPath(p), p)
  for (const p of [
    '/api/../x',
    '/api/./x',
    '/api//x',
    '/api/%2e%2e/x',
    '/api/%2F',
    '/api/%74ickets',
    '/a\\b',
    '/api/..',
  ]) {
    t.notOk(isCanonicalPath(p), p)
  }
})

t.test('round robin, skipping ejected replicas, never empty', async (t) => {
  const pool = createUpstreamPool(
    { a: ['http://1', 'http://2', 'http://3'] },
    { coolDownMs: 60_000, probeTimeoutMs: 100, dispatcher: new Agent() },
  )
  t.teardown(() => pool.close())
  const pick = (s: string) => pool.pick(s)
  t.same([pick('a'), pick('a'), pick('a'), pick('a')], ['http://1', 'http://2', 'http://3', 'http://1'])
  t.equal(pick('b'), undefined)
  pool.failed('a', 'http://2')
  t.same([pick('a'), pick('a'), pick('a'), pick('a')], ['http://3', 'http://1', 'http://3', 'http://1'])
  t.equal(pool.pick('a', 'http://1'), 'http://3', 'another replica than the one that failed')
  pool.failed('a', 'http://1')
  pool.failed('a', 'http://3')
  t.ok(pick('a'), 'all ejected: still one to try')
  t.same(pool.ejected(), { a: ['http://1', 'http://2', 'http://3'] })
})

t.test('which failures eject a replica and which requests may go to another', async (t) => {
  const err = (code: string) => Object.assign(new Error(code), { code })
  t.same(classifyFailure(err('ECONNREFUSED'), 'POST'), { eject: true, retry: true }, 'never connected: any method')
  t.same(classifyFailure(err('UND_ERR_SOCKET'), 'GET'), { eject: true, retry: true }, 'broken under a GET')
  t.same(classifyFailure(err('UND_ERR_SOCKET'), 'POST'), { eject: true, retry: false }, 'a POST may have applied')
  t.same(classifyFailure(err('UND_ERR_HEADERS_TIMEOUT'), 'GET'), { eject: false, retry: false }, 'slow is not dead')
})

t.test("the router's class patterns agree with packages/auth routeClass()", async (t) => {
  const app = Fastify()
  for (const [cls, patterns] of Object.entries(CLASS_PATTERNS)) {
    for (const url of patterns) app.get(url, async () => cls)
  }
  const paths = [
    '/public/kb/a',
    '/help/acme/support',
    '/csat/tok',
    '/uploads/x',
    '/api/v1/auth/login',
    '/api/v1/auth/register',
    '/api/v1/auth/refresh',
    '/api/v1/auth/logout',
    '/api/v1/auth/set-password',
    '/api/v1/auth/sessions',
    '/api/v1/auth/sessions/logout-current',
    '/api/v1/auth/me',
    '/api/v1/ai/query',
    '/api/v1/ws/stats',
    '/api/v1/webrtc/connections',
    '/api/v1/metrics/ingest',
    '/api/v1/metrics/ingest/batch',
    '/api/v1/anything',
    '/api/tickets',
    '/api/security/users/1/revoke-tokens',
  ]
  for (const path of paths) {
    const res = await app.inject({ method: 'GET', url: path })
    t.equal(res.body, routeClass(path), path)
  }
})
