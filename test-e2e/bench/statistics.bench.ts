import { dropNamespace, loadUnit, mintServiceToken, rebuildStats, startFleet } from '@switchboard/cli'
import { UNITS } from '@switchboard/contracts'
import { createJetStreamBus } from '@switchboard/events'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import autocannon from 'autocannon'
import type { Kysely } from 'kysely'
import { profileText, replayCeiling, STATS_FLUSH_MS, tableWrites, writesPerMessage } from './ceiling.ts'
import { fmt, percentile } from './lib.ts'
import { backlogThroughput, countedAs, projectionThroughput, publishAll, worldAsEvents } from './statistics-events.ts'
import { DAYS, loadWorld, TENANTS, WORKSPACE } from './statistics-world.ts'

export interface StatisticsBenchOptions {
  tickets: number
  sessions: number
  messages: number
  customers: number
  agentsPerTenant: number
  events: number
  connections: number
  durationS: number
  rebuild: boolean
  /** publish the world's tickets, sessions and messages as events before the rebuild (BENCH_STATS_WORLD_EVENTS=1) */
  worldEvents: boolean
}

export interface EndpointFigure {
  endpoint: string
  view: 'scoped' | 'unscoped'
  path: string
  rps: number
  p50_ms: number
  p95_ms: number
  p99_ms: number
  requests: number
  non2xx: number
  errors: number
}

export interface StatisticsBenchResult {
  world: { tickets: number; sessions: number; messages: number; customers: number; agents: number; days: number }
  load_s: number
  load_steps: string[]
  connections: number
  endpoints: EndpointFigure[]
  worst_p95_ms: number
  projection: {
    events: number
    publish_s: number
    applied_s: number
    events_per_s: number
    lag_caught_up_s: number
  }
  /** the same events waiting in JetStream first (the replica paused while they were published) */
  backlog: { events: number; publish_s: number; applied_s: number; events_per_s: number }
  /** the rows the backlog's events wrote (per event) written by a raw loop straight to PostgreSQL, same batches */
  projection_ceiling: { events_per_s: number; clients: number; batch: number; rows_per_event: Record<string, unknown> }
  /** backlog.events_per_s ÷ projection_ceiling.events_per_s */
  projection_ratio: number
  aggregates_drift: string[]
  rebuild: { s: number; events: number; applied: number; events_per_s: number; failed: number }
  /** the world published as events before the rebuild (BENCH_STATS_WORLD_EVENTS=1) */
  world_events?: { events: number; publish_s: number }
  rebuild_world_estimate_s: number
}

/** What the bench uses of services/statistics, loaded as the CLI loads units (test-e2e does not depend on it). */
interface StatisticsUnit {
  loadConfig(env: NodeJS.ProcessEnv): any
  build(config: any, deps: { logger: Logger }): Promise<{ close(): Promise<void> }>
  statistics: { contextOf(app: unknown): { db: Kysely<any> } }
  buildAggregates(app: unknown): Promise<void>
  checkAggregates(app: unknown): Promise<string[]>
}

/** One autocannon run of `url`, every response's latency kept (autocannon's own percentiles have no p95). */
function measure(url: string, headers: Record<string, string>, connections: number, durationS: number) {
  return new Promise<{ times: number[]; rps: number; non2xx: number; errors: number; total: number }>(
    (resolve, reject) => {
      const times: number[] = []
      const instance = autocannon({ url, connections, duration: durationS, headers }, (err, result) => {
        if (err) reject(err)
        else {
          resolve({
            times,
            rps: result.requests.average,
            non2xx: result.non2xx,
            errors: result.errors + result.timeouts,
            total: result.requests.total,
          })
        }
      })
      instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
        times.push(responseTime),
      )
    },
  )
}

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10)

export async function benchStatistics(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  o: StatisticsBenchOptions,
): Promise<StatisticsBenchResult> {
  const engines = engineUrls()
  const namespace = uniqueId('benchstats')
  const fleet = await startFleet({
    replicas: 1,
    gatewayReplicas: 1,
    port: 0,
    servicePort: 0,
    namespace,
    services: ['identity', 'statistics'],
    env: {
      ...env,
      // a CPU profile of every unit of the fleet, written when it stops
      ...(process.env.BENCH_STATS_CPU_PROF_DIR
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_STATS_CPU_PROF_DIR}` }
        : {}),
    },
    logger,
    output: (line) => {
      if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`)
    },
  })
  const unit = (await loadUnit(UNITS.statistics)) as unknown as StatisticsUnit
  const statsEnv = { ...fleet.unitEnv('statistics'), CACHE_DRIVER: 'memory', PORT: '0', LOG_LEVEL: 'warn' }
  // an app on the fleet's statistics schema, never started (no consumers): the loader's connection and checks
  const app = await unit.build(unit.loadConfig(statsEnv), { logger })
  const db = unit.statistics.contextOf(app).db
  const bus = await createJetStreamBus({ url: engines.natsUrl, prefix: namespace, logger, name: 'bench-statistics' })
  try {
    const gateway = fleet.gatewayUrls[0]!
    const loadStarted = performance.now()
    const steps = await loadWorld(db, o, () => unit.buildAggregates(app))
    const load_s = (performance.now() - loadStarted) / 1000
    const agents = o.agentsPerTenant * TENANTS.length
    console.log(
      `statistics: loaded ${o.tickets} tickets, ${o.sessions} sessions, ${o.messages} messages, ${o.customers} customers, ${agents} agents over ${DAYS} days in ${TENANTS.length} tenants in ${fmt(load_s)} s (${steps.join(', ')})`,
    )

    // 2. the endpoints through the gateway
    const token = async (scoped: boolean) =>
      (
        await mintServiceToken({
          service: 'bench-statistics',
          permissions: ['statistics.read'],
          ...(scoped ? { tenant_id: TENANTS[0], workspace_id: WORKSPACE } : {}),
          env: fleet.env,
        })
      ).token
    const views = { scoped: await token(true), unscoped: await token(false) } as const
    const range = `start_date=${day(29)}&end_date=${day(0)}`
    const endpoints: Array<[string, string]> = [
      ['dashboard', '/api/statistics/dashboard'],
      ['time-range (30 days)', `/api/statistics/time-range?${range}`],
      ['agent-performance (30 days)', `/api/statistics/agent-performance?${range}&limit=10`],
      ['ticket-category (last 30 days)', '/api/statistics/ticket-category'],
      ['ticket-priority (last 30 days)', '/api/statistics/ticket-priority'],
      ['customer-source', '/api/statistics/customer-source'],
      ['time-range (365 days)', `/api/statistics/time-range?start_date=${day(364)}&end_date=${day(0)}`],
    ]
    const figures: EndpointFigure[] = []
    for (const [endpoint, path] of endpoints) {
      for (const view of ['scoped', 'unscoped'] as const) {
        const headers = { authorization: `Bearer ${views[view]}` }
        const check = await fetch(new URL(path, gateway), { headers })
        if (check.status !== 200) throw new Error(`${endpoint} ${view}: ${check.status} ${await check.text()}`)
        const body = (await check.json()) as unknown
        if (endpoint === 'dashboard') console.log(`statistics: dashboard ${view}: ${JSON.stringify(body)}`)
        await measure(new URL(path, gateway).href, headers, o.connections, 2)
        const r = await measure(new URL(path, gateway).href, headers, o.connections, o.durationS)
        const f: EndpointFigure = {
          endpoint,
          view,
          path,
          rps: r.rps,
          p50_ms: percentile(r.times, 50),
          p95_ms: percentile(r.times, 95),
          p99_ms: percentile(r.times, 99),
          requests: r.total,
          non2xx: r.non2xx,
          errors: r.errors,
        }
        figures.push(f)
        console.log(
          `statistics: ${endpoint.padEnd(31)} ${view.padEnd(8)} ${fmt(f.rps, 0).padStart(5)} req/s  p50 ${fmt(f.p50_ms)} ms  p95 ${fmt(f.p95_ms)} ms  p99 ${fmt(f.p99_ms)} ms  non-2xx ${f.non2xx} errors ${f.errors} (target p95 ≤ 100 ms)`,
        )
      }
    }

    // 3. projection throughput: events of the real contracts onto the fleet's JetStream, applied by the replica
    // while they are published (live), then from a backlog waiting in the stream (the replica paused meanwhile)
    const projection = await projectionThroughput(db, bus, gateway, views.unscoped, o.events)
    console.log(
      `statistics: projection of ${o.events} events while published: published in ${fmt(projection.publish_s)} s, applied in ${fmt(projection.applied_s)} s = ${fmt(projection.events_per_s, 0)} events/s; /lag caught up after ${fmt(projection.lag_caught_up_s)} s`,
    )
    // PostgreSQL's row counters of the namespace's schemas around the backlog: the rows one event writes
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS))
    const writesBefore = await tableWrites(db, namespace)
    const backlog = await backlogThroughput(db, bus, fleet, gateway, views.unscoped, o.events)
    console.log(
      `statistics: projection of ${o.events} events from JetStream (published in ${fmt(backlog.publish_s)} s while the replica was paused) into PostgreSQL: applied in ${fmt(backlog.applied_s)} s = ${fmt(backlog.events_per_s, 0)} events/s (target ≥ 10,000)`,
    )
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS))
    const writes = writesPerMessage(writesBefore, await tableWrites(db, namespace), backlog.events)
    console.log(`statistics: rows written per event (+ inserted ~ updated - deleted): ${profileText(writes.profile)}`)
    // the ceiling: those rows, a statement a row, straight to PostgreSQL in transactions of the projection's batch
    const ceilingClients = Number(process.env.BENCH_STATS_CEILING_CLIENTS ?? 4)
    const ceilingBatch = Number(process.env.BENCH_STATS_CEILING_BATCH ?? 256)
    const ceiling = await replayCeiling({
      databaseUrl: engines.databaseUrl,
      namespace,
      profile: writes.profile,
      clients: ceilingClients,
      batch: ceilingBatch,
      seconds: Number(process.env.BENCH_STATS_CEILING_S ?? 5),
      logger,
    })
    const projection_ratio = backlog.events_per_s / ceiling.messages_per_s
    console.log(
      `statistics: CEILING — the same rows by a raw loop (${ceilingClients} clients, ${ceilingBatch} events a transaction): ` +
        `${fmt(ceiling.messages_per_s, 0)} events/s (failed ${ceiling.failed}) → projection ÷ raw loop = ${fmt(projection_ratio * 100)}%`,
    )

    // 4. the aggregates the events moved, over the whole world, against the raw rows summed
    const drift = await unit.checkAggregates(app)
    console.log(
      `statistics: aggregates against the raw rows: ${drift.length === 0 ? 'equal' : `${drift.length} rows differ`}`,
    )
    for (const line of drift.slice(0, 10)) console.log(`    ${line}`)

    // 5. a full rebuild (switchboard stats rebuild) of what the streams hold (BENCH_STATS_REBUILD=0: none, so that a
    // kept schema keeps the loaded world). BENCH_STATS_WORLD_EVENTS=1: the world's tickets, sessions and messages
    // are published as events first (the statistics replicas stopped, so that only the rebuild applies them)
    let world_events: { events: number; publish_s: number } | undefined
    if (o.rebuild && o.worldEvents) {
      await Promise.all(
        fleet.children
          .filter((c) => c.unit === 'statistics')
          .map((c) => new Promise((stopped) => c.process.once('exit', stopped).kill('SIGTERM'))),
      )
      let published = 0
      const publish_s = await publishAll(
        bus,
        countedAs(worldAsEvents(o), () => published++),
      )
      world_events = { events: published, publish_s }
      console.log(`statistics: the world as ${published} events published in ${fmt(publish_s)} s (replicas stopped)`)
    }
    const rebuildStarted = performance.now()
    const reports = o.rebuild ? await rebuildStats({ env: fleet.unitEnv('statistics'), logger }) : []
    const rebuild_s = (performance.now() - rebuildStarted) / 1000
    const events = reports.reduce((n, r) => n + r.events, 0)
    const rebuild = {
      s: rebuild_s,
      events,
      applied: reports.reduce((n, r) => n + r.applied, 0),
      events_per_s: events / rebuild_s,
      failed: reports.reduce((n, r) => n + r.failed.length, 0),
    }
    // the world as events: a ticket's creation and two status changes, a rating, a violation, a session, a message
    const worldEvents = o.tickets * 3 + o.tickets * 0.12 + o.tickets * 0.05 + o.sessions + o.messages
    const estimate = worldEvents / rebuild.events_per_s
    console.log(
      `statistics: stats rebuild of every projection: ${events} events (${rebuild.applied} applied, ${rebuild.failed} failed) in ${fmt(rebuild_s)} s = ${fmt(rebuild.events_per_s, 0)} events/s; the loaded world as events (~${fmt(worldEvents / 1e6, 2)} M) would take ~${fmt(estimate / 60, 0)} min`,
    )
    const afterRebuild = await unit.checkAggregates(app)
    console.log(
      `statistics: aggregates after the rebuild: ${afterRebuild.length === 0 ? 'equal to the raw rows' : `${afterRebuild.length} rows differ`}`,
    )
    return {
      world: {
        tickets: o.tickets,
        sessions: o.sessions,
        messages: o.messages,
        customers: o.customers,
        agents,
        days: DAYS,
      },
      load_s,
      load_steps: steps,
      connections: o.connections,
      endpoints: figures,
      worst_p95_ms: Math.max(...figures.map((f) => f.p95_ms)),
      projection,
      backlog,
      projection_ceiling: {
        events_per_s: ceiling.messages_per_s,
        clients: ceilingClients,
        batch: ceilingBatch,
        rows_per_event: writes.profile,
      },
      projection_ratio,
      aggregates_drift: [...drift, ...afterRebuild],
      rebuild,
      ...(world_events ? { world_events } : {}),
      rebuild_world_estimate_s: estimate,
    }
  } finally {
    await bus.close()
    await app.close()
    await fleet.close()
    if (process.env.BENCH_STATS_KEEP === '1') console.log(`statistics: kept namespace ${namespace}`)
    else await dropNamespace(namespace, engines).catch((err) => console.error('namespace cleanup failed', err))
  }
}

/** The sizes from the environment: BENCH_STATS_SCALE multiplies the world (not the agents). */
export function statisticsBenchOptions(e: NodeJS.ProcessEnv = process.env): StatisticsBenchOptions {
  const scale = Number(e.BENCH_STATS_SCALE ?? 1)
  const sized = (name: string, full: number) => Math.max(1000, Math.round(Number(e[name] ?? full) * scale))
  return {
    tickets: sized('BENCH_STATS_TICKETS', 1_000_000),
    sessions: sized('BENCH_STATS_SESSIONS', 200_000),
    messages: sized('BENCH_STATS_MESSAGES', 5_000_000),
    customers: sized('BENCH_STATS_CUSTOMERS', 60_000),
    agentsPerTenant: Number(e.BENCH_STATS_AGENTS_PER_TENANT ?? 50),
    events: Number(e.BENCH_STATS_EVENTS ?? 30_000),
    connections: Number(e.BENCH_STATS_CONNECTIONS ?? 20),
    durationS: Number(e.BENCH_STATS_DURATION_S ?? 8),
    rebuild: e.BENCH_STATS_REBUILD !== '0',
    worldEvents: e.BENCH_STATS_WORLD_EVENTS === '1',
  }
}
