// What tracing costs the gateway (issue 24 §1): the same request through four fleets that differ only in
// monitoring.tracing — off, on at ratio 0 (nothing sampled: the cost of a trace that is not kept), 0.1 and 1.0 —
// measured in interleaved rounds of one run, so that background load on this shared machine hits them alike; the
// medians are compared with "off", in requests/s and in CPU per request of the gateway and of tickets (the steadier
// figure when other work shares the cores).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { dropNamespace, startFleet } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { client } from '../harness/http.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { fmt, type LoadResult, load } from './lib.ts'
import { statOf } from './machine.ts'

export interface TracingBenchOptions {
  durationS: number
  warmUpS: number
  rounds: number
  connections: number
  /** a directory: every unit of the fleets writes a V8 CPU profile there (`<setting>/…cpuprofile`) as it exits */
  profileDir?: string
}

export const tracingBenchOptions = (env: NodeJS.ProcessEnv = process.env): TracingBenchOptions => ({
  durationS: Number(env.BENCH_TRACING_S ?? env.BENCH_DURATION_S ?? 8),
  warmUpS: Number(env.BENCH_TRACING_WARM_UP_S ?? 3),
  rounds: Number(env.BENCH_TRACING_ROUNDS ?? 4),
  connections: Number(env.BENCH_TRACING_CONNECTIONS ?? 50),
  profileDir: env.BENCH_TRACING_PROFILE || undefined,
})

const SETTINGS = [
  { name: 'off', dir: 'off', env: { TRACING_ENABLED: 'false' } },
  // nothing sampled: what every request of a trace that is not kept pays (90 % of them at the default 0.1)
  { name: 'on, ratio 0', dir: 'ratio-0', env: { TRACING_ENABLED: 'true', OTEL_TRACES_SAMPLER_ARG: '0' } },
  { name: 'on, ratio 0.1', dir: 'ratio-0.1', env: { TRACING_ENABLED: 'true', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
  { name: 'on, ratio 1.0', dir: 'ratio-1.0', env: { TRACING_ENABLED: 'true', OTEL_TRACES_SAMPLER_ARG: '1.0' } },
] as const

/**
 * A collector stand-in that takes every export and only counts it (bytes and requests): decoding is a collector's
 * work on another machine, not something to charge the gateway's figure with on this one.
 */
async function startSink() {
  const counts = { requests: 0, bytes: 0 }
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => {
      counts.bytes += c.length
    })
    req.on('end', () => {
      counts.requests++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const median = (runs: LoadResult[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** CPU seconds (user + system) used so far by each unit of a fleet. */
function cpuByUnit(fleet: Awaited<ReturnType<typeof startFleet>>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const c of fleet.children) out[c.unit] = (out[c.unit] ?? 0) + (statOf(c.process.pid ?? -1)?.cpu ?? 0)
  return out
}

const load1 = () => Number(loadavg()[0]!.toFixed(2))

/**
 * A fleet of a gateway, identity and tickets per setting (each on its own namespace, all up at once; only one is
 * loaded at a time), a ticket in each, then `GET /api/tickets/:id` through each gateway with the admin's token:
 * rounds of off → 0 → 0.1 → 1.0 (each round starting one setting further on), `connections` connections,
 * `durationS` each. What is traced on that path: the gateway's span, tickets' span and its queries (the token state
 * is cached in the gateway).
 */
export async function benchTracing(env: NodeJS.ProcessEnv, logger: Logger, opts: TracingBenchOptions) {
  const fleets: Array<{
    name: string
    namespace: string
    fleet: Awaited<ReturnType<typeof startFleet>>
    sink: Awaited<ReturnType<typeof startSink>>
  }> = []
  try {
    for (const setting of SETTINGS) {
      const namespace = uniqueId('benchtr')
      // a sink per fleet: what each exported is its own, whenever its batches arrive
      const sink = await startSink()
      const fleet = await startFleet({
        replicas: 1,
        port: 0,
        servicePort: 0,
        namespace,
        services: ['identity', 'tickets'],
        // four fleets at once on one PostgreSQL shared with other work: small pools (the load is 50 connections)
        env: {
          ...env,
          DB_POOL_MAX: '5',
          ...setting.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          ...(opts.profileDir && { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${opts.profileDir}/${setting.dir}` }),
        },
        logger,
        output: (line) => {
          if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`)
        },
      })
      fleets.push({ name: setting.name, namespace, fleet, sink })
    }
    const targets: Array<{
      name: string
      url: string
      headers: Record<string, string>
      sink: (typeof fleets)[number]['sink']
      fleet: (typeof fleets)[number]['fleet']
      runs: LoadResult[]
      cpu: Record<string, number[]>
      exportedBefore: number
    }> = []
    for (const { name, fleet, sink } of fleets) {
      const gateway = fleet.gatewayUrls[0]!
      const api = client(gateway)
      const login = await api.post('/api/v1/auth/login', { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD })
      if (login.status !== 200) throw new Error(`${name}: admin login failed: ${login.status} ${login.text}`)
      const token = login.body.token as string
      const customer = await realCustomer(api, { token }, `bench_tracing_${fleet.namespace}`)
      const ticket = await createTicket(api, { title: 'traced', customer_id: customer.user_id }, { token })
      if (ticket.status !== 201) throw new Error(`${name}: ticket create failed: ${ticket.status} ${ticket.text}`)
      const url = new URL(`/api/tickets/${ticket.body.id}`, gateway).href
      const headers = { authorization: `Bearer ${token}` }
      await load('warm', url, { durationS: opts.warmUpS, headers, connections: opts.connections })
      targets.push({
        name,
        url,
        headers,
        sink,
        fleet,
        runs: [],
        cpu: {},
        exportedBefore: sink.counts.bytes,
      })
    }
    const loadBefore = load1()
    for (let round = 0; round < opts.rounds; round++) {
      // each round starts one setting further on (off → 0 → 0.1 → 1.0, then 0 → 0.1 → 1.0 → off, …): no setting always
      // follows the same one (the one before may leave work behind: its last export, its pool's connections)
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!)
      for (const target of order) {
        const before = cpuByUnit(target.fleet)
        const result = await load(`GET /api/tickets/:id, tracing ${target.name}`, target.url, {
          durationS: opts.durationS,
          headers: target.headers,
          connections: opts.connections,
        })
        const after = cpuByUnit(target.fleet)
        // CPU per request holds better than req/s when other work shares the cores: it is what tracing adds
        for (const [unit, s] of Object.entries(after)) {
          target.cpu[unit] ??= []
          target.cpu[unit].push((1000 * (s - (before[unit] ?? 0))) / Math.max(1, result.total))
        }
        target.runs.push(result)
      }
    }
    const loadAfter = load1()
    // the last batches trail the load by the exporter's delay (1 s)
    await new Promise((r) => setTimeout(r, 2000))
    console.log(`load average (1 min): ${loadBefore} before the rounds, ${loadAfter} after`)
    console.log(
      `| tracing | req/s (median of ${opts.rounds}) | p50 ms | p99 ms | errors | non-2xx | vs off | CPU ms/request (gateway, tickets) | exported |`,
    )
    console.log('|---|---|---|---|---|---|---|---|---|')
    const off = median(targets[0]!.runs)
    const offCpu = targets[0]!.cpu
    const rows = targets.map((target) => {
      const cpu = Object.fromEntries(Object.entries(target.cpu).map(([unit, v]) => [unit, middle(v)]))
      const m = median(target.runs)
      const exported = target.sink.counts.bytes - target.exportedBefore
      const errors = target.runs.reduce((n, r) => n + r.errors, 0)
      const non2xx = target.runs.reduce((n, r) => n + r.non2xx, 0)
      const ratio = m.rps / off.rps
      console.log(
        `| ${target.name} | ${fmt(m.rps, 0)} | ${m.p50} | ${m.p99} | ${errors} | ${non2xx} | ${fmt(ratio * 100)}% | ${fmt(cpu.gateway ?? Number.NaN, 3)}, ${fmt(cpu.tickets ?? Number.NaN, 3)} | ${fmt(exported / 1024 / 1024, 2)} MiB |`,
      )
      return {
        setting: target.name,
        runs: target.runs,
        median_rps: m.rps,
        p50_ms: m.p50,
        p99_ms: m.p99,
        ratio_to_off: ratio,
        cpu_ms_per_request: cpu,
        cpu_ms_per_request_by_round: target.cpu,
        cpu_ratio_to_off: Object.fromEntries(
          Object.entries(cpu).map(([unit, v]) => [unit, v / middle(offCpu[unit] ?? [Number.NaN])]),
        ),
        exported_bytes: exported,
      }
    })
    console.log(
      `per round (req/s): ${targets.map((t) => `${t.name}: ${t.runs.map((r) => fmt(r.rps, 0)).join(', ')}`).join('; ')}`,
    )
    return {
      connections: opts.connections,
      duration_s: opts.durationS,
      rounds: opts.rounds,
      load_average: { before: loadBefore, after: loadAfter },
      settings: rows,
    }
  } finally {
    for (const { fleet, namespace, sink } of fleets) {
      await fleet.close().catch((err) => console.error('fleet close failed', err))
      await dropNamespace(namespace, engineUrls()).catch((err) => console.error('namespace cleanup failed', err))
      await sink.close()
    }
  }
}
