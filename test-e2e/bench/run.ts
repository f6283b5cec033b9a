// Benchmarks against the real fleet (PostgreSQL, Redis, NATS):
// `npm run bench [-- walking|login|revocation|websocket|failover|sla|tickets-list|conversations|conversations-cpu|realtime|ai|statistics|console|tracing]`,
// and `npm run chaos` (= `npm run bench -- chaos`: minutes long, never part of `all`).
// Every figure is a ratio or a percentile taken in ONE run, because this machine is noisy.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { signInternalPrincipal } from '@switchboard/auth'
import { dropNamespace, SERVICES, startFleet } from '@switchboard/cli'
import { PRINCIPAL_HEADER } from '@switchboard/contracts'
import { DEFAULT_RATE_LIMITS } from '@switchboard/gateway'
import { createRootLogger } from '@switchboard/platform'
import { engineUrls, startWsEcho, uniqueId } from '@switchboard/testing'
import { client } from '../harness/http.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { benchAi } from './ai.bench.ts'
import { benchChaos } from './chaos.bench.ts'
import { benchConsole, consoleBenchOptions } from './console.bench.ts'
import { benchConversationMessages } from './conversations.bench.ts'
import { benchConversationsCpu, conversationsCpuOptions } from './conversations-cpu.ts'
import { benchQueueConcurrency } from './conversations-queue.bench.ts'
import { benchFailover } from './failover.bench.ts'
import { benchLogin, benchRevocation } from './identity.bench.ts'
import { counter, fmt, type LoadResult, load, startHelloWorld } from './lib.ts'
import { benchRealtime } from './realtime.bench.ts'
import { benchSla } from './sla.bench.ts'
import { benchStatistics, statisticsBenchOptions } from './statistics.bench.ts'
import { benchTicketList } from './tickets-list.bench.ts'
import { benchTracing, tracingBenchOptions } from './tracing.bench.ts'
import { benchWebsocket } from './websocket.bench.ts'

const which = new Set(process.argv.slice(2).filter((a) => !a.startsWith('-')))
const all = which.size === 0 || which.has('all')
const durationS = Number(process.env.BENCH_DURATION_S ?? 8)
const WARM_UP_S = Number(process.env.BENCH_WARM_UP_S ?? 5)
const engines = engineUrls()
const namespace = uniqueId('bench')
const internalSecret = randomBytes(32).toString('base64url')
// The stand-in for realtime-voice that the shared fleet's gateways relay /api/v1/ws to (the websocket bench).
const echo = await startWsEcho({ internalSecret })
// Rate limiting stays ON (its Redis round trip is part of the real path) with limits the load cannot reach.
const limits = {
  ...DEFAULT_RATE_LIMITS,
  global: { requests_per_minute: 100_000_000, burst: 10_000_000 },
  prefixes: DEFAULT_RATE_LIMITS.prefixes.map((p) => ({ ...p, requests_per_minute: 100_000_000, burst: 10_000_000 })),
}
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: engines.databaseUrl,
  REDIS_URL: engines.redisUrl,
  NATS_URL: engines.natsUrl,
  JWT_SECRET: randomBytes(32).toString('base64url'),
  INTERNAL_SECRET: internalSecret,
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: `Adm-${randomBytes(9).toString('base64url')}`,
  AGENT_USERNAME: 'agent',
  AGENT_PASSWORD: `Agt-${randomBytes(9).toString('base64url')}`,
  RATE_LIMITS_JSON: JSON.stringify(limits),
  UPSTREAM_REALTIME_VOICE: echo.url,
  WS_MAX_MESSAGES_PER_SECOND: '100000',
  LOG_LEVEL: 'warn',
}
const logger = createRootLogger({ level: 'warn', destination: process.stderr })

console.log(`# Switchboard benchmarks — namespace ${namespace}, ${durationS}s per load, 50 connections`)
const results: Record<string, unknown> = { namespace, duration_s: durationS, at: new Date().toISOString() }
const resultsDir = new URL('./results/', import.meta.url).pathname
/** Merged into what earlier runs measured: a run of one bench keeps the others' latest figures. */
function writeResults() {
  mkdirSync(resultsDir, { recursive: true })
  const file = `${resultsDir}latest.json`
  const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  writeFileSync(file, `${JSON.stringify({ ...earlier, ...results }, null, 2)}\n`)
  console.log(`results written to test-e2e/bench/results/latest.json`)
}
// No fleet: conversations in this process (PostgreSQL, Redis, JetStream), its CPU per agent message. Named only.
if (which.has('conversations-cpu')) {
  results.conversations_cpu = await benchConversationsCpu(logger, conversationsCpuOptions())
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// No fleet: the tickets service in this process on its own schema, a million tickets loaded by SQL.
if (all || which.has('sla')) {
  results.sla = await benchSla(logger, {
    tickets: Number(process.env.BENCH_SLA_TICKETS ?? 1_000_000),
    fresh: Number(process.env.BENCH_SLA_FRESH ?? 10_000),
  })
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// No fleet either: the tickets service in this process, a million tickets of one tenant, the list over HTTP.
if (all || which.has('tickets-list')) {
  results.tickets_list = await benchTicketList(logger, {
    tickets: Number(process.env.BENCH_LIST_TICKETS ?? 1_000_000),
    requests: Number(process.env.BENCH_LIST_REQUESTS ?? 400),
  })
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// Every unit killed in turn under a mixed load: its own fleet (two replicas of everything, its own NATS server).
if (which.has('chaos')) {
  results.chaos = await benchChaos(env, logger, {
    seconds: Number(process.env.CHAOS_SECONDS ?? 300),
    downS: Number(process.env.CHAOS_DOWN_S ?? 2),
    kills: process.env.CHAOS_KILLS ? process.env.CHAOS_KILLS.split(',') : undefined,
    rate: Number(process.env.CHAOS_RATE ?? 1),
    dbPoolMax: Number(process.env.CHAOS_DB_POOL_MAX ?? 4),
  })
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// The agent console in Chromium against the embedded default (its own system): first load and live rows.
if (all || which.has('console')) {
  results.console = await benchConsole(consoleBenchOptions())
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// Its own fleet (two replicas of everything), before the shared one starts.
if (all || which.has('failover')) {
  results.failover = await benchFailover(env, logger, Number(process.env.BENCH_FAILOVER_S ?? 15))
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// The realtime-voice hub: its own fleet (two hub replicas, two gateways, only the services the hub needs).
if (all || which.has('realtime')) {
  results.realtime = await benchRealtime(env, logger, {
    durationS: Number(process.env.BENCH_REALTIME_S ?? 10),
    // `auto`: the maximum measured first, then 50 % and 80 % of it (open loop)
    rates:
      (process.env.BENCH_REALTIME_RATES ?? 'auto') === 'auto'
        ? []
        : process.env.BENCH_REALTIME_RATES!.split(',').map(Number),
    fanoutRate: Number(process.env.BENCH_REALTIME_FANOUT_RATE ?? 25),
    fanoutSockets: Number(process.env.BENCH_REALTIME_FANOUT_SOCKETS ?? 1000),
    idleSockets: Number(process.env.BENCH_REALTIME_IDLE ?? 10_000),
  })
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// Statistics on a world of a million tickets: its own fleet, the world loaded by SQL through the projection code.
if (all || which.has('statistics')) {
  results.statistics = await benchStatistics(env, logger, statisticsBenchOptions())
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// AI answers: its own fleet (identity and ai-orchestrator), a provider stand-in answering in 50 ms.
if (all || which.has('ai')) {
  results.ai = await benchAi(env, logger, {
    durationS,
    warmUpS: WARM_UP_S,
    connections: Number(process.env.BENCH_AI_CONNECTIONS ?? 100),
    providerMs: Number(process.env.BENCH_AI_PROVIDER_MS ?? 50),
  })
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// What tracing costs the gateway: three small fleets of its own (off, ratio 0.1, ratio 1.0), interleaved rounds.
if (all || which.has('tracing')) {
  results.tracing = await benchTracing(env, logger, tracingBenchOptions())
  if (which.size === 1) {
    await echo.close()
    writeResults()
    process.exit(0)
  }
}
// The queue's concurrency proof: its own fleet (three replicas of everything), before the shared one starts.
if ((all || which.has('conversations')) && process.env.BENCH_QUEUE !== '0') {
  results.conversations_queue = await benchQueueConcurrency(
    env,
    logger,
    Number(process.env.BENCH_QUEUE_ROUNDS ?? 20),
    Number(process.env.BENCH_QUEUE_BUDGET_S ?? 300),
  )
}
const fleet = await startFleet({
  replicas: 1,
  gatewayReplicas: 2,
  port: 0,
  servicePort: 0,
  namespace,
  // without the real hub, whose UPSTREAM_REALTIME_VOICE would replace the echo stand-in the websocket bench measures
  services: SERVICES.map((s) => s.name).filter((name) => name !== 'realtime-voice'),
  // a CPU profile of every unit of the shared fleet, written when it stops (BENCH_CPU_PROF_DIR)
  env: process.env.BENCH_CPU_PROF_DIR
    ? { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}` }
    : env,
  logger,
  output: (line) => {
    if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`)
  },
})
try {
  const [gatewayA, gatewayB] = fleet.gatewayUrls as [string, string]
  const identityUrl = fleet.serviceUrls.identity![0]!
  const ticketsUrl = fleet.serviceUrls.tickets![0]!
  const api = client(gatewayA)
  const loginRes = await api.post('/api/v1/auth/login', { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD })
  if (loginRes.status !== 200) throw new Error(`admin login failed: ${loginRes.status} ${loginRes.text}`)
  const admin = loginRes.body as { token: string; user: { id: string } }

  if (all || which.has('walking')) {
    // a real customer of the admin's workspace: tickets learns it from identity's event before the first ticket
    const customer = await realCustomer(api, { token: admin.token }, `bench_${namespace}`)
    const created = await createTicket(
      api,
      { title: 'bench ticket', customer_id: customer.user_id },
      { token: admin.token },
    )
    if (created.status !== 201) throw new Error(`ticket create failed: ${created.status} ${created.text}`)
    const ticketId = created.body.id as string
    const path = `/api/tickets/${ticketId}`
    // What the gateway would pass: the same principal, signed with the internal secret.
    const claims = JSON.parse(Buffer.from(admin.token.split('.')[1]!, 'base64url').toString())
    const principalToken = await signInternalPrincipal(
      internalSecret,
      {
        user_id: claims.sub,
        kind: 'admin',
        roles: claims.roles ?? ['admin'],
        permissions: ['*'],
        tenant_id: claims.tenant_id ?? '',
        workspace_id: claims.workspace_id ?? '',
        session_id: claims.session_id,
        jti: claims.jti,
        token_tenant_id: claims.tenant_id ?? '',
        token_workspace_id: claims.workspace_id ?? '',
      },
      3600,
    )
    const hello = await startHelloWorld(18_099)
    try {
      const bearer = { authorization: `Bearer ${admin.token}` }
      // warm-up to steady state (JIT, pools, token-state cache): the first rounds were consistently slower with 2 s
      await load('warm', new URL(path, gatewayA).href, { durationS: WARM_UP_S, headers: bearer })
      await load('warm', new URL(path, ticketsUrl).href, {
        durationS: WARM_UP_S,
        headers: { [PRINCIPAL_HEADER]: principalToken },
      })
      const hw = await load('bare fastify hello-world', hello.url, { durationS })
      const identityQueriesBefore = await counter(
        new URL('/metrics', identityUrl).href,
        'db_queries_total',
        servingQueries,
      )
      const fetchesBefore = await counter(new URL('/metrics', gatewayA).href, 'gateway_token_state_fetch_total')
      // Interleaved rounds, so that a burst of background load hits both paths alike; medians are compared.
      const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
      const directRuns: LoadResult[] = []
      const gatewayRuns: LoadResult[] = []
      for (let i = 0; i < rounds; i++) {
        directRuns.push(
          await load('GET /api/tickets/:id direct to tickets', new URL(path, ticketsUrl).href, {
            durationS,
            headers: { [PRINCIPAL_HEADER]: principalToken },
          }),
        )
        gatewayRuns.push(
          await load('GET /api/tickets/:id through the gateway', new URL(path, gatewayA).href, {
            durationS,
            headers: bearer,
          }),
        )
      }
      const direct = median(directRuns)
      const viaGateway = median(gatewayRuns)
      const gatewayTotal = gatewayRuns.reduce((n, r) => n + r.total, 0)
      const identityQueries =
        (await counter(new URL('/metrics', identityUrl).href, 'db_queries_total', servingQueries)) -
        identityQueriesBefore
      const fetches =
        (await counter(new URL('/metrics', gatewayA).href, 'gateway_token_state_fetch_total')) - fetchesBefore
      printTable([hw, ...directRuns, ...gatewayRuns])
      const ratio = viaGateway.rps / direct.rps
      const ratios = gatewayRuns.map((g, i) => fmt((g.rps / directRuns[i]!.rps) * 100)).join('%, ')
      console.log(
        `gateway / direct throughput, medians of ${rounds} interleaved rounds: ${fmt(ratio * 100)}% (target ≥ 50%; per round ${ratios}%)`,
      )
      console.log(
        `gateway p99 at 50 connections (median round): ${viaGateway.p99} ms (target ≤ 25 ms); direct p99 ${direct.p99} ms`,
      )
      console.log(`direct / hello-world: ${fmt((direct.rps / hw.rps) * 100)}%`)
      console.log(
        `identity database queries made serving requests (probes and background work excluded) during ${gatewayTotal} gateway requests: ${identityQueries} (${fmt(identityQueries / Math.max(1, gatewayTotal), 4)} per request); token-state fetches from identity: ${fetches}`,
      )
      results.walking = {
        hello: hw,
        direct: directRuns,
        gateway: gatewayRuns,
        ratio_of_medians: ratio,
        identity_queries: identityQueries,
        token_state_fetches: fetches,
      }
    } finally {
      await hello.stop()
    }
  }
  if (all || which.has('login')) results.login = await benchLogin(gatewayA, env, durationS)
  if (all || which.has('revocation')) results.revocation = await benchRevocation(gatewayA, gatewayB, admin.token, env)
  if (all || which.has('websocket')) results.websocket = await benchWebsocket(gatewayA, echo.url, admin.token)
  if (all || which.has('conversations')) {
    const reachable = { url: gatewayA, env, serviceUrls: fleet.serviceUrls }
    results.conversations = await benchConversationMessages(reachable, namespace, logger, durationS, WARM_UP_S, fleet)
  }
} finally {
  await fleet.close()
  await echo.close()
  await dropNamespace(namespace, engines).catch((err) => console.error('namespace cleanup failed', err))
}
writeResults()

/** Queries made while serving a request, other than readiness/health probes (background work is labelled apart). */
function servingQueries(labels: string) {
  return !/origin="(background|\/ready|\/health|\/metrics)"/.test(labels)
}

/** The run with the median throughput (its latencies come with it). */
function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!
}

function printTable(rows: LoadResult[]) {
  console.log('| target | req/s | p50 ms | p99 ms | errors | non-2xx |')
  console.log('|---|---|---|---|---|---|')
  for (const r of rows)
    console.log(`| ${r.name} | ${fmt(r.rps, 0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`)
}
