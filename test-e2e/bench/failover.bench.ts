// One of two tickets replicas killed -9 under load, through the gateway: how many requests fail? Only those the
// dead replica held in flight may; the rest go to the live one (a refused connection is retried there once and the
// dead replica is ejected). Its own fleet: two replicas of every service, one gateway.
import { dropNamespace, startFleet } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import autocannon from 'autocannon'
import { client } from '../harness/http.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { counter, fmt } from './lib.ts'

export interface FailoverResult {
  total: number
  failed: number
  failed_percent: number
  errors: number
  non2xx: number
  rps: number
  p99_ms: number
  killed_after_s: number
  ejections: number
  retries: number
}

export async function benchFailover(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  durationS: number,
): Promise<FailoverResult> {
  const namespace = uniqueId('benchfo')
  const fleet = await startFleet({
    replicas: 2,
    gatewayReplicas: 1,
    port: 0,
    servicePort: 0,
    namespace,
    env,
    logger,
    output: (line) => {
      if (/"level":(50|60)/.test(line) && !line.includes('upstream failed')) process.stderr.write(`${line}\n`)
    },
  })
  try {
    const gateway = fleet.gatewayUrls[0]!
    const api = client(gateway)
    const login = await api.post('/api/v1/auth/login', { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD })
    const token = (login.body as { token: string }).token
    const scope = { 'x-tenant-id': 'demo', 'x-workspace-id': 'main' }
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...scope }
    // a real customer: tickets checks it against identity's directory (its first ticket waits for the event)
    const customer = await realCustomer(api, { token, headers: scope }, `failover_${namespace}`)
    const created = await createTicket(
      api,
      { title: 'Failover', customer_id: customer.user_id },
      { token, headers: scope },
    )
    const id = (created.body as { id: string }).id
    const killAfterS = Math.max(2, Math.floor(durationS / 3))
    const victim = fleet.children.find((c) => c.name === 'tickets.2')!
    setTimeout(() => victim.process.kill('SIGKILL'), killAfterS * 1000).unref()
    // Each connection alternates a read and a write: a write refused by the dead replica must go to the live one.
    const result = await autocannon({
      url: gateway,
      connections: 50,
      duration: durationS,
      headers,
      requests: [
        { method: 'GET', path: `/api/tickets/${id}` },
        {
          method: 'POST',
          path: '/api/tickets',
          body: JSON.stringify({ title: 'Under failover', customer_id: customer.user_id }),
        },
      ],
    })
    const failed = result.errors + result.timeouts + result.non2xx
    const total = result.requests.total
    const metrics = `${gateway}/metrics`
    const out: FailoverResult = {
      total,
      failed,
      failed_percent: total ? (100 * failed) / total : 0,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      rps: result.requests.average,
      p99_ms: result.latency.p99,
      killed_after_s: killAfterS,
      ejections: await counter(metrics, 'gateway_upstream_ejections_total', (l) => l.includes('tickets')),
      retries: await counter(metrics, 'gateway_upstream_retries_total', (l) => l.includes('tickets')),
    }
    console.log(
      `failover: tickets.2 killed -9 after ${killAfterS} s of ${durationS} s at 50 connections (GET + POST): ` +
        `${out.failed} of ${out.total} requests failed = ${fmt(out.failed_percent, 3)} % (target ≤ 0.1 %); ` +
        `${fmt(out.rps, 0)} req/s, p99 ${out.p99_ms} ms; ejections ${out.ejections}, retries ${out.retries}`,
    )
    return out
  } finally {
    await fleet.close()
    await dropNamespace(namespace, engineUrls()).catch((err) => console.error('namespace cleanup failed', err))
  }
}
