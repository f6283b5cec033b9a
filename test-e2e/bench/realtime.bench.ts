import { cpus } from 'node:os'
import { expandPermissions, signInternalPrincipal } from '@switchboard/auth'
import { dropNamespace, type Fleet, startFleet } from '@switchboard/cli'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { type Agent, conversationsKit, hubPrincipal, must } from '../harness/conversations-kit.ts'
import { decodeJwt } from '../harness/identity-kit.ts'
import { counter, fmt, percentile } from './lib.ts'
import { cpuMeter, cpuText, MiB, machineBusy, rssOf } from './machine.ts'
import {
  bareSocket,
  deliveryBook,
  drain,
  frameOf,
  listen,
  openMany,
  paced,
  poster,
  type Socket,
} from './realtime-load.ts'

const CUSTOMERS = 10
const SESSIONS_PER_CUSTOMER = 10
const AGENTS = 2
const SESSIONS = CUSTOMERS * SESSIONS_PER_CUSTOMER
/** every session is posted to by its agent; its frames reach its customer's socket and the agent's two consoles */
const RECEIVERS_PER_MESSAGE = 3

export interface RealtimeOptions {
  /** seconds per steady-rate phase of figure 1 */
  durationS: number
  /**
   * message POST rates (per second) of figure 1; empty: measured — first the maximum (offered `saturateRate`, at
   * most 256 in flight: what is accepted is the most the path takes), then 50 % and 80 % of it
   */
  rates: number[]
  saturateRate?: number
  /** posts per second of figure 2 (each reaches every one of its sockets) */
  fanoutRate: number
  fanoutSockets: number
  idleSockets: number
}

/** The principal the gateway signs for an agent's token (its kind, roles, permissions and scope). */
function principalOf(token: string): Principal {
  const c = decodeJwt(token).payload as Record<string, any>
  return {
    user_id: c.sub,
    kind: 'agent',
    roles: c.roles,
    permissions: expandPermissions(c.roles, c.permissions ?? []),
    tenant_id: c.tenant_id,
    workspace_id: c.workspace_id,
    session_id: c.session_id ?? '',
    jti: c.jti,
    token_tenant_id: c.tenant_id,
    token_workspace_id: c.workspace_id,
  }
}
export async function benchRealtime(env: NodeJS.ProcessEnv, logger: Logger, opts: RealtimeOptions) {
  const namespace = uniqueId('benchrt')
  const busyBefore = await machineBusy(2000)
  console.log(
    `realtime: machine busy before the fleet starts: ${busyBefore}% of one core (2 s; ${cpus().length} cores)`,
  )
  const fleet = await startFleet({
    replicas: 2,
    gatewayReplicas: 2,
    port: 0,
    servicePort: 0,
    namespace,
    services: ['identity', 'conversations', 'realtime-voice'],
    env: {
      ...env,
      // One agent's 1,000 consoles, and one customer's ten sessions on ten sockets: past the per-principal limits
      // of a real deployment (20 per hub replica, 50 per gateway replica), raised here as the rate limits are.
      HUB_MAX_SOCKETS_PER_PRINCIPAL: '20000',
      WS_MAX_CONNECTIONS_PER_CLIENT: '20000',
      // a CPU profile of every unit of this fleet, written when it stops
      ...(process.env.BENCH_REALTIME_CPU_PROF_DIR
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_REALTIME_CPU_PROF_DIR}` }
        : {}),
    },
    logger,
    output: (line) => {
      if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`)
    },
  })
  const open: Socket[] = []
  const closeAll = () => {
    for (const ws of open.splice(0)) ws.terminate()
  }
  try {
    return { machine_busy_before_percent: busyBefore, ...(await measure(fleet, env, opts, open, closeAll)) }
  } finally {
    closeAll()
    await fleet.close()
    await dropNamespace(namespace, engineUrls()).catch((err) => console.error('namespace cleanup failed', err))
  }
}

async function measure(
  fleet: Fleet,
  env: NodeJS.ProcessEnv,
  opts: RealtimeOptions,
  open: Socket[],
  closeAll: () => void,
) {
  const gateways = fleet.gatewayUrls
  const hubs = fleet.serviceUrls['realtime-voice']!
  const kit = await conversationsKit({ url: gateways[0]!, env: fleet.env, serviceUrls: fleet.serviceUrls })
  const scope = kit.freshScope('benchrt')
  const internalSecret = env.INTERNAL_SECRET!

  // The cast: two agents holding 50 sessions each, ten customers with ten sessions each.
  const agents: Agent[] = []
  for (let a = 0; a < AGENTS; a++)
    agents.push(await kit.agent(scope, `rtagent${a}`, { max_concurrent: 100, online: true }))
  await kit.onlineAgents(scope, AGENTS)
  const customers = await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => kit.customer(scope, `rtcust${i}`)))
  const hub = kit.hub(scope)
  const sessions: { id: string; customer: number; agent: number }[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const customer = i % CUSTOMERS
    const agent = i % AGENTS
    const { session } = await hub.open(`bench question ${i}`, customers[customer]!.user_id)
    must(
      await kit.api.post(
        '/api/session-transfer/to-agent',
        { session_id: session.id, target_agent_id: agents[agent]!.user_id },
        kit.svc(scope),
      ),
      200,
      'to-agent',
    )
    sessions.push({ id: session.id, customer, agent })
  }
  const agentTokens = await Promise.all(agents.map(async (a) => (await kit.agentLogin(a)).token))
  const customerTokens = await Promise.all(
    customers.map(
      async (c) =>
        (await kit.api.post('/api/v1/auth/login', { username: c.username, password: c.password })).body.token as string,
    ),
  )
  const protocols = (token: string) => ({ protocols: ['switchboard.v1', `bearer.${token}`] })
  // posters[agent][gateway]
  const posters = agents.map((_, a) => gateways.map((g) => poster(g, agentTokens[a]!)))
  const book = deliveryBook()
  const cpu = cpuMeter(fleet)
  const statsHeader = { [PRINCIPAL_HEADER]: await signInternalPrincipal(internalSecret, hubPrincipal(scope), 3600) }
  /** sockets of the bench's scope on each hub replica (its own count, not the cluster's) */
  const perReplica = () =>
    Promise.all(
      hubs.map(async (h) => {
        const r = await fetch(new URL('/api/v1/ws/stats', h), { headers: statsHeader })
        return ((await r.json()) as { connected_clients: number }).connected_clients
      }),
    )

  try {
    // ---- 1. POST → frame at the session's sockets --------------------------------------------------------------
    // each session's customer joins it on a socket of its own (alternating gateways); each agent has a console on
    // each gateway (which follows every session assigned to the agent)
    const joined = await openMany(SESSIONS, 20, async (i) => {
      const s = sessions[i]!
      const ws = await bareSocket(gateways[i % gateways.length]!, protocols(customerTokens[s.customer]!))
      open.push(ws)
      const answered = frameOf(ws, 'session')
      ws.send(JSON.stringify({ type: 'join', data: { session_id: s.id } }))
      await answered
      listen(ws, book)
      return ws
    })
    for (const token of agentTokens) {
      for (const g of gateways) {
        const ws = await bareSocket(g, protocols(token))
        open.push(ws)
        listen(ws, book)
      }
    }
    const spread = await perReplica()
    let n = 0
    const postOne = async (k: number) => {
      const s = sessions[k % SESSIONS]!
      const status = await posters[s.agent]![k % gateways.length]!.post(
        `/api/omni/sessions/${s.id}/messages`,
        `bench ${k}`,
      )
      if (status === 201) book.accepted(k, RECEIVERS_PER_MESSAGE)
      return status === 201
    }
    const send = (k: number) => {
      book.sent(k, performance.now())
      return postOne(k)
    }
    // warm-up: JIT, pools, token-state caches of both gateways
    book.reset(performance.now())
    const warm = await paced(100, Math.min(3, opts.durationS), n, send)
    n += warm.issued
    await drain(book)
    const phases: Array<
      Awaited<ReturnType<typeof paced>> & { p50_ms: number; p99_ms: number; lost: number } & Record<string, unknown>
    > = []
    let rates = opts.rates
    let maximum: number | undefined
    if (rates.length === 0) {
      book.reset(performance.now())
      const offered = opts.saturateRate ?? 1000
      const saturated = await paced(offered, opts.durationS, n, send)
      n += saturated.issued
      await drain(book)
      maximum = saturated.accepted_per_s
      rates = [0.5, 0.8].map((share) => Math.max(1, Math.round(share * maximum!)))
      console.log(
        `realtime 1: the maximum — offered ${offered}/s for ${opts.durationS} s (at most 256 in flight): accepted ` +
          `${fmt(maximum, 0)}/s, POST p99 ${fmt(saturated.post_p99_ms, 0)} ms (queueing); then 50 % and 80 % of it: ${rates.join(', ')}/s`,
      )
    }
    for (const rate of rates) {
      book.reset(performance.now())
      cpu.start()
      const load = await paced(rate, opts.durationS, n, send)
      n += load.issued
      await drain(book)
      const cpuUsed = cpu.stop()
      const samples = book.samples()
      const tally = book.tally()
      const phase = {
        ...load,
        deliveries_owed: book.owed(),
        delivered: book.delivered,
        lost: tally.lost,
        duplicates: tally.duplicates,
        p50_ms: percentile(samples, 50),
        p95_ms: percentile(samples, 95),
        p99_ms: percentile(samples, 99),
        max_ms: percentile(samples, 100),
        cpu_percent: cpuUsed,
      }
      phases.push(phase)
      console.log(
        `realtime 1: message POST → frame through the gateways, offered ${rate}/s for ${opts.durationS} s: ` +
          `accepted ${fmt(load.accepted_per_s, 0)}/s${load.kept_up ? '' : ' (the POST path did NOT keep up)'}, ` +
          `POST p50 ${fmt(load.post_p50_ms, 1)} ms p99 ${fmt(load.post_p99_ms, 1)} ms; ` +
          `${phase.delivered} of ${phase.deliveries_owed} deliveries, lost ${phase.lost}, duplicates ${phase.duplicates}; ` +
          `POST start → frame p50 ${fmt(phase.p50_ms, 1)} ms, p95 ${fmt(phase.p95_ms, 1)} ms, p99 ${fmt(phase.p99_ms, 1)} ms (target ≤ 100 ms), max ${fmt(phase.max_ms, 0)} ms; ` +
          `CPU ${cpuText(cpuUsed)}`,
      )
    }
    const keptUp = phases.filter((p) => p.kept_up)
    const best = keptUp.at(-1)
    const withinTarget = keptUp.filter((p) => p.p99_ms <= 100).at(-1)
    const figure1 = {
      sockets: { customers: joined.sockets.length, consoles: AGENTS * gateways.length, per_hub_replica: spread },
      sessions: SESSIONS,
      receivers_per_message: RECEIVERS_PER_MESSAGE,
      phases,
      ...(maximum !== undefined ? { maximum_accepted_per_s: maximum } : {}),
      highest_rate_kept_up: best?.offered_per_s ?? 0,
      highest_rate_within_100ms_p99: withinTarget?.offered_per_s ?? 0,
    }
    console.log(
      `realtime 1 (summary): ${joined.sockets.length} customer sockets + ${AGENTS * gateways.length} consoles over hub replicas ${spread.join(' + ')}; ` +
        `highest POST rate kept up: ${best ? `${best.offered_per_s}/s (frame p50 ${fmt(best.p50_ms, 1)} ms, p99 ${fmt(best.p99_ms, 1)} ms)` : 'none'}; ` +
        `highest with p99 ≤ 100 ms: ${withinTarget ? `${withinTarget.offered_per_s}/s (p99 ${fmt(withinTarget.p99_ms, 1)} ms)` : 'none'}; ` +
        `lost in all phases: ${phases.reduce((n, p) => n + p.lost, 0)}`,
    )
    closeAll()

    // ---- 2. fan-out: 1,000 consoles of one agent ---------------------------------------------------------------
    // Every message of the agent's sessions goes to each of its consoles. Posted through the gateways as above; the
    // consoles through the gateways (what a client sees), then straight to the hub replicas (the hub's own figure).
    const fanAgent = 0
    const fanSessions = sessions.filter((s) => s.agent === fanAgent).slice(0, 10)
    const fanSeconds = Math.max(3, Math.round(opts.durationS / 2))
    const agentHeader = {
      [PRINCIPAL_HEADER]: await signInternalPrincipal(internalSecret, principalOf(agentTokens[fanAgent]!), 3600),
    }
    const fanout = async (path: 'gateway' | 'direct') => {
      const consoles = await openMany(opts.fanoutSockets, 50, async (i) => {
        const ws =
          path === 'gateway'
            ? await bareSocket(gateways[i % gateways.length]!, protocols(agentTokens[fanAgent]!))
            : await bareSocket(hubs[i % hubs.length]!, { headers: agentHeader, protocols: ['switchboard.v1'] })
        open.push(ws)
        listen(ws, book)
        return ws
      })
      const fanSpread = await perReplica()
      const fanSend = async (k: number) => {
        const s = fanSessions[k % fanSessions.length]!
        book.sent(k, performance.now())
        const status = await posters[fanAgent]![k % gateways.length]!.post(
          `/api/omni/sessions/${s.id}/messages`,
          `bench ${k}`,
        )
        if (status === 201) book.accepted(k, opts.fanoutSockets)
        return status === 201
      }
      // warm-up: a second of it, so the consoles follow the sessions and the paths are hot
      book.reset(performance.now())
      n += (await paced(opts.fanoutRate, 1, n, fanSend)).issued
      await drain(book)
      const fanStarted = performance.now()
      book.reset(fanStarted)
      cpu.start()
      const fanLoad = await paced(opts.fanoutRate, fanSeconds, n, fanSend)
      n += fanLoad.issued
      await drain(book)
      const fanCpu = cpu.stop()
      const fanTally = book.tally()
      const { lastArrival } = book.span()
      const buckets = book.buckets()
      const fanSamples = book.samples()
      const fanP50s = book.p50BySecond()
      const firstP50 = fanP50s[0] ?? 0
      const lastP50 = fanP50s[fanSeconds - 1] ?? Number.POSITIVE_INFINITY
      const figure = {
        path,
        sockets: consoles.sockets.length,
        per_hub_replica: fanSpread,
        opened_in_s: consoles.seconds,
        posts_per_s: fanLoad.accepted_per_s,
        posts: fanLoad.accepted,
        deliveries_owed: book.owed(),
        delivered: book.delivered,
        lost: fanTally.lost,
        duplicates: fanTally.duplicates,
        /** every delivery over the time from the first post to the last frame */
        deliveries_per_s: book.delivered / ((lastArrival - fanStarted) / 1000),
        deliveries_per_s_by_second: buckets,
        /** the slowest whole second of the posting window */
        steady_min_per_s: Math.min(...buckets.slice(0, fanSeconds)),
        p50_ms: percentile(fanSamples, 50),
        p99_ms: percentile(fanSamples, 99),
        p50_ms_by_second: fanP50s,
        /** nothing lost, and no backlog growing over the posting window (its last second no slower than its first) */
        kept_up: fanTally.lost === 0 && lastP50 <= Math.max(100, 2 * firstP50),
        post_p50_ms: fanLoad.post_p50_ms,
        post_p99_ms: fanLoad.post_p99_ms,
        cpu_percent: fanCpu,
      }
      console.log(
        `realtime 2: fan-out to ${figure.sockets} consoles of one agent ${path === 'gateway' ? 'through the gateways' : 'straight to the hubs'} ` +
          `(per hub replica ${fanSpread.join(' + ')}), ${fmt(figure.posts_per_s, 0)} posts/s for ${fanSeconds} s: ` +
          `${fmt(figure.deliveries_per_s, 0)} deliveries/s (target ≥ 20,000/s; slowest whole second ${figure.steady_min_per_s}; ` +
          `${figure.kept_up ? 'kept up' : 'did NOT keep up: a growing backlog'}), ${figure.delivered} of ${figure.deliveries_owed}, lost ${figure.lost}; ` +
          `POST start → frame p50 ${fmt(figure.p50_ms, 1)} ms, p99 ${fmt(figure.p99_ms, 1)} ms (POST p50 ${fmt(figure.post_p50_ms, 1)} ms); CPU ${cpuText(fanCpu)}`,
      )
      closeAll()
      return figure
    }
    const figure2 = { through_gateways: await fanout('gateway'), straight_to_hubs: await fanout('direct') }

    // ---- 3. idle sockets on one hub replica ------------------------------------------------------------------
    const replica = fleet.children.find((c) => c.unit === 'realtime-voice' && c.url === hubs[0])!
    const pid = replica.process.pid!
    // the closed sockets of figures 1 and 2 gone from the replica's count before the baseline
    await new Promise((r) => setTimeout(r, 2000))
    const metrics = new URL('/metrics', hubs[0]).href
    const before = {
      rss: rssOf(pid),
      heap: await counter(metrics, 'nodejs_heap_size_used_bytes'),
      metric: await counter(metrics, 'process_resident_memory_bytes'),
      sockets: (await perReplica())[0]!,
    }
    // customers of the bench's scope (a principal each, as the gateway would sign it), connected and idle
    const principal = (i: number): Principal => ({
      user_id: `idle-${i}`,
      kind: 'end_user',
      roles: ['customer'],
      permissions: [],
      ...scope,
      session_id: '',
      jti: '',
      token_tenant_id: scope.tenant_id,
      token_workspace_id: scope.workspace_id,
    })
    const idle = await openMany(opts.idleSockets, 100, async (i) => {
      const header = { [PRINCIPAL_HEADER]: await signInternalPrincipal(internalSecret, principal(i), 3600) }
      const ws = await bareSocket(hubs[0]!, { headers: header, protocols: ['switchboard.v1'] })
      open.push(ws)
      return ws
    })
    await new Promise((r) => setTimeout(r, 3000))
    const after = {
      rss: rssOf(pid),
      heap: await counter(metrics, 'nodejs_heap_size_used_bytes'),
      metric: await counter(metrics, 'process_resident_memory_bytes'),
      sockets: (await perReplica())[0]!,
    }
    const figure3 = {
      path: 'straight to hub replica 1 (the gateway is not in the path)',
      sockets: after.sockets - before.sockets,
      opened_in_s: idle.seconds,
      rss_mib: after.rss / MiB,
      rss_before_mib: before.rss / MiB,
      metric_rss_mib: after.metric / MiB,
      per_socket_kib: (after.rss - before.rss) / 1024 / Math.max(1, after.sockets - before.sockets),
      heap_used_mib: after.heap / MiB,
      heap_used_before_mib: before.heap / MiB,
    }
    console.log(
      `realtime 3: ${figure3.sockets} idle customer sockets on hub replica 1 (straight to it, opened in ${fmt(idle.seconds, 1)} s): ` +
        `RSS ${fmt(figure3.rss_mib, 0)} MiB (target ≤ 500 MiB; ${fmt(figure3.rss_before_mib, 0)} MiB before, ` +
        `${fmt(figure3.per_socket_kib, 1)} KiB per socket; process_resident_memory_bytes ${fmt(figure3.metric_rss_mib, 0)} MiB; ` +
        `JS heap used ${fmt(figure3.heap_used_mib, 0)} MiB, ${fmt(figure3.heap_used_before_mib, 0)} MiB before)`,
    )
    closeAll()
    return { figure1, figure2, figure3 }
  } finally {
    for (const row of posters) for (const p of row) p.close()
  }
}
