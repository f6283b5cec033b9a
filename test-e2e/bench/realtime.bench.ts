// The realtime-voice WebSocket hub on its own fleet (two hub replicas, two gateways, two replicas of identity and
// conversations; PostgreSQL, Redis, NATS), in one run:
//  1. an agent's message POST (`/api/omni/sessions/:id/messages`, through the gateways) → the `agent-message` frame
//     at the sockets of that session (the customer's, joined through a gateway, and the agent's two consoles), at
//     steady rates: POST start → frame arrival p50/p95/p99, and deliveries lost;
//  2. fan-out: 1,000 consoles of one agent (through both gateways, then straight to the hub replicas; 500 on each),
//     messages posted to its sessions: deliveries per second across all sockets;
//  3. 10,000 idle sockets straight to one hub replica (the gateways hold 10,000 connections at most each, and two
//     file descriptors per relayed socket): the replica's resident memory.
import { readdirSync, readFileSync } from 'node:fs'
import { Agent as HttpAgent, request } from 'node:http'
import { cpus } from 'node:os'
import { expandPermissions, signInternalPrincipal } from '@switchboard/auth'
import { dropNamespace, type Fleet, startFleet } from '@switchboard/cli'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import { engineUrls, type Opened, uniqueId, wsConnect, wsOpened } from '@switchboard/testing'
import { type Agent, conversationsKit, hubPrincipal, must } from '../harness/conversations-kit.ts'
import { decodeJwt } from '../harness/identity-kit.ts'
import { counter, fmt, percentile } from './lib.ts'

type Socket = Opened['ws']

const CUSTOMERS = 10
const SESSIONS_PER_CUSTOMER = 10
const AGENTS = 2
const SESSIONS = CUSTOMERS * SESSIONS_PER_CUSTOMER
/** every session is posted to by its agent; its frames reach its customer's socket and the agent's two consoles */
const RECEIVERS_PER_MESSAGE = 3
const MAX_IN_FLIGHT = 256

export interface RealtimeOptions {
  /** seconds per steady-rate phase of figure 1 */
  durationS: number
  /** message POST rates (per second) of figure 1 */
  rates: number[]
  /** posts per second of figure 2 (each reaches every one of its sockets) */
  fanoutRate: number
  fanoutSockets: number
  idleSockets: number
}

/** Posts `{content}` as JSON on a keep-alive pool; resolves with the status (0: no answer). */
function poster(base: string, token: string) {
  const url = new URL(base)
  const agent = new HttpAgent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT })
  const post = (path: string, content: string) =>
    new Promise<number>((resolve) => {
      const body = JSON.stringify({ content })
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.setTimeout(15_000, () => req.destroy())
      req.on('error', () => resolve(0))
      req.end(body)
    })
  return { post, close: () => agent.destroy() }
}

/**
 * Posts that frames are matched to by the number in their content (`bench <n>`): the number is known before the
 * POST is sent, so a frame that beats the POST's answer is matched all the same.
 */
function deliveryBook() {
  const sentAt = new Map<number, number>()
  const expected = new Map<number, number>()
  const got = new Map<number, number>()
  let samples: number[] = []
  let arrivals: number[] = []
  let delivered = 0
  let strays = 0
  let firstArrival = Number.POSITIVE_INFINITY
  let lastArrival = 0
  let buckets: number[] = []
  let origin = 0
  return {
    /** a phase starts: what came before is forgotten */
    reset(at: number) {
      sentAt.clear()
      expected.clear()
      got.clear()
      samples = []
      arrivals = []
      delivered = 0
      strays = 0
      firstArrival = Number.POSITIVE_INFINITY
      lastArrival = 0
      buckets = []
      origin = at
    },
    sent(n: number, at: number) {
      sentAt.set(n, at)
    },
    /** the POST was accepted (201): `receivers` deliveries are owed */
    accepted(n: number, receivers: number) {
      expected.set(n, receivers)
    },
    arrive(n: number, at: number) {
      const t0 = sentAt.get(n)
      if (t0 === undefined) {
        strays++
        return
      }
      samples.push(at - t0)
      arrivals.push(at - origin)
      got.set(n, (got.get(n) ?? 0) + 1)
      delivered++
      if (at < firstArrival) firstArrival = at
      lastArrival = at
      const second = Math.floor((at - origin) / 1000)
      buckets[second] = (buckets[second] ?? 0) + 1
    },
    get delivered() {
      return delivered
    },
    owed() {
      let n = 0
      for (const v of expected.values()) n += v
      return n
    },
    /** deliveries owed by accepted posts that never came, and any beyond what was owed */
    tally() {
      let lost = 0
      let duplicates = 0
      for (const [n, want] of expected) {
        const had = got.get(n) ?? 0
        if (had < want) lost += want - had
        else duplicates += had - want
      }
      return { lost, duplicates, strays }
    },
    samples: () => samples,
    span: () => ({ firstArrival, lastArrival }),
    buckets: () => [...buckets].map((b) => b ?? 0),
    /** the median latency of the frames that arrived in each second of the phase */
    p50BySecond() {
      const by: number[][] = []
      samples.forEach((v, i) => {
        const second = Math.floor(arrivals[i]! / 1000)
        by[second] ??= []
        by[second].push(v)
      })
      return [...by].map((b) => (b ? Math.round(percentile(b, 50)) : null))
    },
  }
}
type Book = ReturnType<typeof deliveryBook>

const MARK = Buffer.from('"content":"bench ')
/** The post number in a message frame's content, without parsing the frame (-1 for any other frame). */
function markOf(data: Buffer): number {
  const i = data.indexOf(MARK)
  if (i < 0) return -1
  let n = 0
  for (let j = i + MARK.length; j < data.length; j++) {
    const c = data[j]!
    if (c < 48 || c > 57) break
    n = n * 10 + c - 48
  }
  return n
}

/** Counts the frames of a socket into the book (the client's own queue of wsConnect is taken off: it would grow). */
function listen(ws: Socket, book: Book) {
  ws.removeAllListeners('message')
  ws.on('error', () => {})
  ws.on('message', (data: Buffer) => {
    const at = performance.now()
    const n = markOf(data)
    if (n >= 0) book.arrive(n, at)
  })
}

/** Resolves with the first frame of `type` on the socket (after the client's queue was taken off). */
function frameOf(ws: Socket, type: string, timeoutMs = 15_000) {
  return new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} frame within ${timeoutMs} ms`)), timeoutMs)
    const onMessage = (data: Buffer) => {
      const f = JSON.parse(data.toString())
      if (f.type === 'error') {
        clearTimeout(timer)
        ws.off('message', onMessage)
        reject(new Error(`error frame: ${JSON.stringify(f.data)}`))
      }
      if (f.type !== type) return
      clearTimeout(timer)
      ws.off('message', onMessage)
      resolve(f)
    }
    ws.on('message', onMessage)
  })
}

/** Opens `count` sockets, `concurrency` upgrades at a time; `open(i)` opens the i-th. */
async function openMany(count: number, concurrency: number, open: (i: number) => Promise<Socket>) {
  const out: Socket[] = new Array(count)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++
        out[i] = await open(i)
      }
    }),
  )
  return { sockets: out, seconds: (performance.now() - started) / 1000 }
}

const bareSocket = async (base: string, opts: Parameters<typeof wsConnect>[2]) => {
  const ws = wsOpened(await wsConnect(base, '/api/v1/ws', { ...opts, greeting: false })).ws
  ws.removeAllListeners('message')
  ws.on('error', () => {})
  return ws
}

/**
 * Posts at a steady `rate` for `seconds` (open loop: the schedule does not wait for answers, at most MAX_IN_FLIGHT
 * at once); `post(n)` sends the n-th and says whether it was accepted.
 */
async function paced(rate: number, seconds: number, first: number, post: (n: number) => Promise<boolean>) {
  const latencies: number[] = []
  /** POST latencies by the second of the phase they were sent in */
  const bySecond: number[][] = []
  let issued = 0
  let inFlight = 0
  let accepted = 0
  let acceptedInWindow = 0
  let refused = 0
  let cappedTicks = 0
  const pending = new Set<Promise<void>>()
  const started = performance.now()
  const deadline = started + seconds * 1000
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate)
    while (issued < due && inFlight < MAX_IN_FLIGHT) {
      const n = first + issued++
      inFlight++
      const t0 = performance.now()
      const p = post(n).then((ok) => {
        const t1 = performance.now()
        latencies.push(t1 - t0)
        const second = Math.floor((t0 - started) / 1000)
        bySecond[second] ??= []
        bySecond[second].push(t1 - t0)
        if (ok) accepted++
        else refused++
        if (ok && t1 <= deadline) acceptedInWindow++
        inFlight--
        pending.delete(p)
      })
      pending.add(p)
    }
    if (issued < due) cappedTicks++
    await new Promise((r) => setTimeout(r, 1))
  }
  await Promise.all(pending)
  // what the POST path answered while the load ran: below the offered rate, it fell behind (a growing backlog)
  const acceptedPerS = acceptedInWindow / seconds
  const p50s = [...bySecond].map((l) => (l ? percentile(l, 50) : Number.NaN))
  const firstP50 = p50s[0] ?? Number.NaN
  const lastP50 = p50s[Math.ceil(seconds) - 1] ?? Number.NaN
  return {
    offered_per_s: rate,
    issued,
    accepted,
    accepted_per_s: acceptedPerS,
    refused,
    /**
     * answered at the offered rate (within 5 %), never MAX_IN_FLIGHT unanswered, and no backlog growing: the posts
     * of the last second answered (median) within 100 ms or twice what the first second's took
     */
    kept_up:
      acceptedPerS >= 0.95 * rate && cappedTicks === 0 && refused === 0 && lastP50 <= Math.max(100, 2 * firstP50),
    post_p50_ms_by_second: p50s.map((v) => Math.round(v)),
    post_p50_ms: percentile(latencies, 50),
    post_p99_ms: percentile(latencies, 99),
  }
}

/** Until every owed delivery came, or none came for `quietMs` (at most a minute). */
async function drain(book: Book, quietMs = 3000) {
  const deadline = performance.now() + 60_000
  let seen = book.delivered
  let since = performance.now()
  while (book.delivered < book.owed() && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50))
    if (book.delivered !== seen) {
      seen = book.delivered
      since = performance.now()
    } else if (performance.now() - since > quietMs) break
  }
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN)
  return kib * 1024
}

const MiB = 1024 * 1024

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
const TICKS_PER_S = 100

/** CPU seconds (user + system) of a process so far, and its command name; undefined once it is gone. */
function statOf(pid: number | string): { comm: string; cpu: number } | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // fields after the command (which may hold spaces): state is field 3, utime 14, stime 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S,
  }
}

const ENGINES = /^(postgres|nats-server|redis-server)$/
const KERNEL = /^(ksoftirqd|kworker|kswapd)/

/**
 * CPU used from `start()` to `stop()`, in % of one core (this machine has two): per unit of the fleet (its replicas
 * summed), this process, the engines (PostgreSQL, NATS, Redis: others' work on them included), the kernel's
 * threads, every other process (what else ran: the figures are only clean when this is near 0), and the machine.
 */
function cpuMeter(fleet: Fleet) {
  const read = () => {
    const units: Record<string, number> = {}
    const ours = new Set<number>([process.pid])
    for (const c of fleet.children) {
      if (c.process.pid === undefined) continue
      ours.add(c.process.pid)
      units[c.unit] = (units[c.unit] ?? 0) + (statOf(c.process.pid)?.cpu ?? 0)
    }
    const own = process.cpuUsage()
    units.bench = (own.user + own.system) / 1e6
    const pids = new Map<number, { comm: string; cpu: number }>()
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || ours.has(Number(entry))) continue
      const st = statOf(entry)
      if (st) pids.set(Number(entry), st)
    }
    // every core's busy ticks
    const all = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const machine = (all.reduce((a, b) => a + b, 0) - all[3]! - all[4]!) / TICKS_PER_S
    return { units, pids, machine }
  }
  let from = read()
  let at = 0
  return {
    start() {
      from = read()
      at = performance.now()
    },
    stop(): Record<string, number> {
      const to = read()
      const seconds = (performance.now() - at) / 1000
      const pct = (s: number) => Math.round((100 * s) / seconds)
      const out: Record<string, number> = {}
      for (const [unit, s] of Object.entries(to.units)) out[unit] = pct(s - (from.units[unit] ?? 0))
      const groups = { engines: 0, kernel: 0, others: 0 }
      // a process started meanwhile counts from 0; one that ended meanwhile is missed (the machine's total has it)
      for (const [pid, st] of to.pids) {
        const used = st.cpu - (from.pids.get(pid)?.cpu ?? 0)
        groups[ENGINES.test(st.comm) ? 'engines' : KERNEL.test(st.comm) ? 'kernel' : 'others'] += used
      }
      out.engines = pct(groups.engines)
      out.kernel = pct(groups.kernel)
      out.others = pct(groups.others)
      out.machine = pct(to.machine - from.machine)
      return out
    },
  }
}
const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([unit, p]) => `${unit} ${p}%`)
    .join(', ')

/** The machine's busy share (% of one core) over `ms`: whatever else runs here perturbs the figures. */
async function machineBusy(ms: number) {
  const busy = () => {
    const all = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    return (all.reduce((a, b) => a + b, 0) - all[3]! - all[4]!) / TICKS_PER_S
  }
  const from = busy()
  await new Promise((r) => setTimeout(r, ms))
  return Math.round((100 * (busy() - from)) / (ms / 1000))
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
    for (const rate of opts.rates) {
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
