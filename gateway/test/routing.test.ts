import { routeClass } from '@switchboard/auth'
import Fastify from 'fastify'
import t from 'tap'
import { CLASS_PATTERNS } from '../src/routing/route-classes.ts'
import { createUpstreamPicker, isCanonicalPath, serviceFor } from '../src/routing/service-table.ts'

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
    ['/api/audit/logs/export', 'audit'],
    ['/public/kb/search', 'ai-orchestrator'],
    ['/api/v1/ws/stats', 'realtime-voice'],
    ['/api/slack', undefined],
    ['/api/ticketsx', undefined],
    ['/public', undefined],
    ['/', undefined],
  ]
  for (const [path, service] of cases) t.equal(serviceFor(path), service, path)
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

t.test('round robin', async (t) => {
  const pick = createUpstreamPicker({ a: ['1', '2', '3'] })
  t.same([pick('a'), pick('a'), pick('a'), pick('a')], ['1', '2', '3', '1'])
  t.equal(pick('b'), undefined)
})

t.test("the router's class patterns agree with packages/auth routeClass()", async (t) => {
  const app = Fastify()
  for (const [cls, patterns] of Object.entries(CLASS_PATTERNS)) {
    for (const url of patterns) app.get(url, async () => cls)
  }
  const paths = [
    '/public/kb/a',
    '/uploads/x',
    '/api/v1/auth/login',
    '/api/v1/auth/register',
    '/api/v1/auth/refresh',
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
