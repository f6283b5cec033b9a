import { randomBytes } from 'node:crypto'
import { dropNamespace, startFleet } from '@switchboard/cli'
import { DEFAULT_RATE_LIMITS } from '@switchboard/gateway'
import { createRootLogger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import autocannon from 'autocannon'

const engines = engineUrls()
const namespace = uniqueId('prof')
const limits = {
  ...DEFAULT_RATE_LIMITS,
  global: { requests_per_minute: 1e8, burst: 1e7 },
  prefixes: DEFAULT_RATE_LIMITS.prefixes.map((p) => ({ ...p, requests_per_minute: 1e8, burst: 1e7 })),
}
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: engines.databaseUrl,
  REDIS_URL: engines.redisUrl,
  NATS_URL: engines.natsUrl,
  JWT_SECRET: randomBytes(32).toString('base64url'),
  INTERNAL_SECRET: randomBytes(32).toString('base64url'),
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'Adm-123456789012',
  AGENT_USERNAME: 'agent',
  AGENT_PASSWORD: 'Agt-123456789012',
  RATE_LIMITS_JSON: JSON.stringify(limits),
  LOG_LEVEL: 'warn',
  ...(process.env.PROF ? { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/prof' } : {}),
}
const counts = new Map<string, number>()
const fleet = await startFleet({
  replicas: 1,
  port: 0,
  servicePort: 0,
  namespace,
  env,
  logger: createRootLogger({ level: 'warn' }),
  output: (l, u) => {
    if (u === 'gateway') counts.set(l.slice(0, 160), (counts.get(l.slice(0, 160)) ?? 0) + 1)
  },
})
try {
  const g = fleet.gatewayUrls[0]!
  const login = (await (
    await fetch(new URL('/api/v1/auth/login', g), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Adm-123456789012' }),
    })
  ).json()) as any
  const t = (await (
    await fetch(new URL('/api/tickets', g), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ title: 'x', customer_id: 'c' }),
    })
  ).json()) as any
  const r = await autocannon({
    url: new URL(`/api/tickets/${t.id}`, g).href,
    connections: 50,
    duration: 8,
    headers: { authorization: `Bearer ${login.token}` },
  })
  console.log('rps', r.requests.average, 'p99', r.latency.p99, 'non2xx', r.non2xx)
  const m = await (await fetch(new URL('/metrics', fleet.serviceUrls.identity[0]!))).text()
  console.log(
    m
      .split('\n')
      .filter((l) => l.startsWith('db_queries_total') || l.startsWith('http_request_duration_seconds_count'))
      .join('\n'),
  )
  console.log([...counts].sort((a, b) => b[1] - a[1]).slice(0, 5))
} finally {
  await fleet.close()
  await dropNamespace(namespace, engines)
}
