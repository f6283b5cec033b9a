// Chaos (issue 24 §2): two replicas of every unit and two gateways on PostgreSQL, Redis and a NATS server of the
// bench's own (chaos-nats.ts), a mixed load for CHAOS_SECONDS (chaos-load.ts), and one replica of each unit killed -9
// in turn (then NATS, then a gateway), each started again. Then (chaos-checks.ts): every accepted write stored once,
// audited once, counted once in statistics; every hub client resumed without a lost or doubled message; and the
// requests that failed, per kill.
// `npm run chaos` (= `npm run bench -- chaos`); test-e2e/bench/README.md "chaos" says what is measured and how.
import { once } from 'node:events'
import { createWriteStream, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { dropNamespace, SERVICES, startFleet } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { startPrimaryStandIn } from '../../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { type Agent, conversationsKit, must } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { createTicket } from '../harness/tickets-kit.ts'
import {
  auditByRequest,
  configHistory,
  exactlyOnce,
  quiet,
  sessionMessages,
  socketCheck,
  storedTickets,
} from './chaos-checks.ts'
import { type Follower, follower, type RequestBook, requestBook, type Sent } from './chaos-load.ts'
import { type OwnNats, ownNats } from './chaos-nats.ts'
import { fmt } from './lib.ts'
import { cpuMeter, cpuText } from './machine.ts'

export interface ChaosOptions {
  /** seconds of load; the kills are spread over it */
  seconds: number
  /** seconds a killed replica stays down before it is started again */
  downS: number
  /** what is killed, in order: unit names, `nats`, `gateway` (default: every service, then nats, then gateway) */
  kills?: string[]
  /** a multiplier of the mix's rates (1: about 45 requests/s and 6 hub messages/s) */
  rate: number
  /** each replica's PostgreSQL pool (DB_POOL_MAX) */
  dbPoolMax: number
}

/** Requests per second of each kind at rate 1. */
const MIX: Record<string, number> = {
  'ticket.create': 10,
  'ticket.read': 10,
  'message.agent': 10,
  'message.customer': 6,
  'ai.query': 4,
  'stats.read': 4,
  login: 1,
  'config.write': 0.5,
}
const CUSTOMERS = 5
const SESSIONS_PER_CUSTOMER = 2
const AGENTS = 2
const DOC = { title: 'Refund policy', content: 'Refunds are paid within 14 days of the return reaching us.' }

interface KillRecord {
  target: string
  killed_at_s: number
  ready_at_s: number
  /** requests sent in the second after the kill */
  requests_that_second: number
  /** requests that failed between this kill and the next (or the end) */
  failed: number
  /** of them, sent before the kill: in flight when it came */
  failed_in_flight: number
  /** of them, sent after the kill (to a dead replica the gateways had not ejected yet, or refused while down) */
  failed_sent_after: number
  /** the issue's figure: what the kill itself failed (in flight) against the requests of that second */
  failed_in_flight_percent_of_that_second: number
  /** when the last failed request was sent, seconds after the kill (negative: every failure was in flight) */
  last_failure_after_s: number | null
  /** by kind and status (or the connection's error) */
  failed_by_kind: Record<string, number>
}

export async function benchChaos(env: NodeJS.ProcessEnv, logger: Logger, opts: ChaosOptions) {
  const namespace = uniqueId('chaos')
  const tag = namespace.replaceAll('_', '')
  const kills = opts.kills ?? [...SERVICES.map((s) => s.name), 'nats', 'gateway']
  const nats = await ownNats()
  const primary = await startPrimaryStandIn({ docs: [DOC], delayMs: 20, record: false })
  const provider = primary.settings()
  const logFile = join(tmpdir(), `${namespace}.log`)
  const log = createWriteStream(logFile)
  console.log(
    `chaos: ${opts.seconds} s of load, kills ${kills.join(', ')} (down ${opts.downS} s each); NATS ${nats ? `own server ${nats.url}` : 'the shared one (not killed)'}; the fleet's output in ${logFile}`,
  )
  const fleet = await startFleet({
    replicas: 2,
    gatewayReplicas: 2,
    port: 0,
    servicePort: 0,
    namespace,
    env: {
      ...env,
      ...(nats ? { NATS_URL: nats.url } : {}),
      PRIMARY_PROVIDER_ENABLED: 'true',
      PRIMARY_PROVIDER_BASE_URL: provider.base_url,
      PRIMARY_PROVIDER_API_KEY: provider.api_key,
      PRIMARY_PROVIDER_DATASET_ID: provider.dataset_id,
      PRIMARY_PROVIDER_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
      // 16 services share PostgreSQL's 100 connections with whatever else runs on the machine
      DB_POOL_MAX: String(opts.dbPoolMax),
    },
    logger,
    output: (line) => log.write(`${line}\n`),
  })
  const followers: Follower[] = []
  try {
    const result = await run(fleet, opts, { tag, kills, nats, followers })
    // the day's run of its own beside latest.json (which run.ts merges every bench's latest figures into)
    const file = new URL(`./results/chaos-${new Date().toISOString().slice(0, 10)}.json`, import.meta.url).pathname
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), targets: kills, ...result }, null, 2)}\n`)
    console.log(`chaos: results written to test-e2e/bench/results/${basename(file)}`)
    return result
  } finally {
    for (const f of followers) f.stop()
    await fleet.close()
    await primary.close().catch(() => {})
    await nats?.stop()
    log.end()
    await dropNamespace(namespace, engineUrls()).catch((err) => console.error('namespace cleanup failed', err))
  }
}

async function run(
  fleet: Awaited<ReturnType<typeof startFleet>>,
  opts: ChaosOptions,
  ctx: { tag: string; kills: string[]; nats: OwnNats | undefined; followers: Follower[] },
) {
  const gateways = fleet.gatewayUrls
  const kit = await conversationsKit({ url: gateways[0]!, env: fleet.env, serviceUrls: fleet.serviceUrls })
  const scope = kit.freshScope('chaos')
  const svc = kit.svc(scope)

  // ---- the cast: agents, customers, sessions (each assigned to an agent), a ticket customer ------------------------
  const agents: Agent[] = []
  for (let a = 0; a < AGENTS; a++)
    agents.push(await kit.agent(scope, `chaosagent${a}`, { max_concurrent: 50, online: true }))
  await kit.onlineAgents(scope, AGENTS)
  const customers = await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => kit.customer(scope, `chaoscust${i}`)))
  const hub = kit.hub(scope)
  const sessions: Array<{ id: string; customer: number; agent: number; first: string }> = []
  for (let i = 0; i < CUSTOMERS * SESSIONS_PER_CUSTOMER; i++) {
    const customer = i % CUSTOMERS
    const agent = i % AGENTS
    const { session, message } = await hub.open(`chaos opener ${i}`, customers[customer]!.user_id)
    must(
      await kit.api.post(
        '/api/session-transfer/to-agent',
        { session_id: session.id, target_agent_id: agents[agent]!.user_id },
        svc,
      ),
      200,
      'to-agent',
    )
    sessions.push({ id: session.id, customer, agent, first: message.id })
  }
  const agentTokens = await Promise.all(agents.map(async (a) => (await kit.agentLogin(a)).token))
  const customerTokens = await Promise.all(
    customers.map(
      async (c) =>
        must(await kit.api.post('/api/v1/auth/login', { username: c.username, password: c.password }), 200, 'login')
          .token as string,
    ),
  )
  // a ticket to read, and tickets knows the ticket customer (identity's event) before the load starts
  const readMe = must(
    await createTicket(kit.api, { title: `chaos-${ctx.tag} read`, customer_id: customers[0]!.user_id }, svc),
    201,
    'ticket',
  )
  must(await kit.api.post('/api/knowledge-docs', DOC, svc), 201, 'knowledge doc')

  // ---- hub clients: a customer's socket per session, a console per agent joined to its sessions --------------------
  const origin = performance.now()
  const book = requestBook(gateways, origin)
  const customerFollowers = sessions.map((s, i) =>
    follower({
      name: `customer-socket-${i}`,
      gateways,
      token: () => customerTokens[s.customer]!,
      sessions: new Map([[s.id, s.first]]),
      now: book.now,
      firstGateway: i,
    }),
  )
  const consoles = agents.map((_, a) =>
    follower({
      name: `console-${a}`,
      gateways,
      token: () => agentTokens[a]!,
      sessions: new Map(sessions.filter((s) => s.agent === a).map((s) => [s.id, s.first])),
      now: book.now,
      firstGateway: a,
    }),
  )
  ctx.followers.push(...customerFollowers, ...consoles)
  for (const f of ctx.followers) await f.connect()

  // ---- the writes kept to check them afterwards --------------------------------------------------------------------
  const tickets: Array<{ title: string; entry: Sent; id?: string }> = []
  const agentMessages: Array<{ session: string; content: string; entry: Sent }> = []
  const customerMessages: Array<{ session: string; content: string; entry: Sent }> = []
  const configWrites: Array<{ change_ref: string; entry: Sent }> = []
  let n = 0
  const actions: Record<string, () => Promise<unknown>> = {
    login: () => {
      const a = agents[n % AGENTS]!
      return book.call('login', 'POST', '/api/v1/auth/login', { body: { username: a.username, password: a.password } })
    },
    'ticket.create': async () => {
      const title = `chaos-${ctx.tag} t${n}`
      const body = { title, customer_id: customers[n % CUSTOMERS]!.user_id }
      const record: (typeof tickets)[number] = { title, entry: undefined as unknown as Sent }
      tickets.push(record)
      const p = book.call('ticket.create', 'POST', '/api/tickets', { ...svc, body, expect: 201 })
      record.entry = book.all.at(-1)!
      const { body: created } = await p
      record.id = created?.id
    },
    'ticket.read': () => book.call('ticket.read', 'GET', `/api/tickets/${readMe.id}`, svc),
    'message.agent': () => {
      const s = sessions[n % sessions.length]!
      const content = `chaos-${ctx.tag} a${n}`
      const p = book.call('message.agent', 'POST', `/api/omni/sessions/${s.id}/messages`, {
        token: agentTokens[s.agent]!,
        body: { content },
        expect: 201,
      })
      agentMessages.push({ session: s.id, content, entry: book.all.at(-1)! })
      return p
    },
    'message.customer': async () => {
      // a socket not reconnecting and not waiting for its own last message
      const i = customerFollowers.findIndex((f, k) => f.live && k >= n % customerFollowers.length)
      const k = i >= 0 ? i : customerFollowers.findIndex((f) => f.live)
      if (k < 0) return
      const content = `chaos-${ctx.tag} c${n}`
      const entry: Sent = {
        kind: 'message.customer',
        sent: book.now(),
        done: 0,
        status: 0,
        ok: false,
        request_id: '',
        refused: 0,
      }
      book.all.push(entry)
      customerMessages.push({ session: sessions[k]!.id, content, entry })
      entry.ok = await customerFollowers[k]!.say(sessions[k]!.id, content)
      entry.status = entry.ok ? 201 : 0
      entry.done = book.now()
    },
    'ai.query': () =>
      book.call('ai.query', 'POST', '/api/v1/ai/query', { ...svc, body: { query: 'when are refunds paid' } }),
    'stats.read': () => book.call('stats.read', 'GET', '/api/statistics/dashboard', svc),
    'config.write': () => {
      const change_ref = `chaos-${ctx.tag}-${n}`
      const p = book.call('config.write', 'PUT', '/api/security/config/workspace', {
        token: svc.token,
        headers: { ...svc.headers, 'x-change-ref': change_ref, 'x-change-reason': 'chaos bench' },
        body: { portal: { brand_name: `Chaos ${n}` } },
      })
      configWrites.push({ change_ref, entry: book.all.at(-1)! })
      return p
    },
  }

  // ---- the load (open loop: a schedule per kind) and the kills beside it ------------------------------------------
  const inFlight = new Set<Promise<unknown>>()
  let stop = false
  const drive = async (kind: string, perS: number) => {
    const t0 = performance.now()
    let issued = 0
    while (!stop) {
      const due = Math.floor(((performance.now() - t0) / 1000) * perS)
      while (issued < due && inFlight.size < 400) {
        issued++
        n++
        const p = actions[kind]!().catch((err) => console.error(`chaos: ${kind} threw`, err))
        inFlight.add(p)
        void p.finally(() => inFlight.delete(p))
      }
      await sleep(5)
    }
  }
  const cpu = cpuMeter(fleet)
  const loadBefore = loadavg()[0]!
  cpu.start()
  const drivers = Object.entries(MIX).map(([kind, perS]) => drive(kind, perS * opts.rate))
  const killed: Array<{ target: string; killed_at: number; ready_at: number }> = []
  const spacing = (opts.seconds * 1000) / (ctx.kills.length + 1)
  for (const [i, target] of ctx.kills.entries()) {
    await sleep(Math.max(0, origin + spacing * (i + 1) - performance.now()))
    killed.push(await killAndRestart(fleet, ctx.nats, target, i, opts.downS, book))
    const k = killed.at(-1)!
    console.log(`  killed ${k.target} at ${fmt(k.killed_at / 1000)} s, ready again at ${fmt(k.ready_at / 1000)} s`)
  }
  await sleep(Math.max(0, origin + opts.seconds * 1000 - performance.now()))
  stop = true
  await Promise.all(drivers)
  await Promise.all(inFlight)
  const loadEnded = book.now()
  // % of one core (the machine has two) while the load ran; `others` is what else ran on the machine meanwhile
  const cpuUsed = cpu.stop()
  const loadAfter = loadavg()[0]!

  // ---- settle: frames delivered, projections caught up ------------------------------------------------------------
  await quiet(ctx.followers)
  await until(
    'statistics caught up',
    async () => {
      const r = await kit.api.get('/api/statistics/lag', svc)
      return r.status === 200 && r.body.caught_up ? true : undefined
    },
    60_000,
  ).catch((err) => console.error(`chaos: ${(err as Error).message}`))
  await sleep(2000)

  // ---- the checks --------------------------------------------------------------------------------------------------
  const stored = await storedTickets(kit.api, svc, ctx.tag)
  const ticketCheck = exactlyOnce(
    tickets.map((t) => ({ key: t.title, ok: t.entry.ok })),
    stored,
  )
  const messages = new Map<string, Array<{ id: string; seq: number; content: string; visibility: string }>>()
  for (const s of sessions) messages.set(s.id, await sessionMessages(kit.api, svc, s.id, s.first))
  const contents = new Map<string, number>()
  for (const list of messages.values())
    for (const m of list) contents.set(m.content, (contents.get(m.content) ?? 0) + 1)
  const agentCheck = exactlyOnce(
    agentMessages.map((m) => ({ key: m.content, ok: m.entry.ok })),
    contents,
  )
  const customerCheck = exactlyOnce(
    customerMessages.map((m) => ({ key: m.content, ok: m.entry.ok })),
    contents,
  )
  const history = await configHistory(kit.api, svc)
  const configCheck = exactlyOnce(
    configWrites.map((c) => ({ key: c.change_ref, ok: c.entry.ok })),
    history,
  )
  const auditable = [
    ...tickets.map((t) => t.entry),
    ...agentMessages.map((m) => m.entry),
    ...configWrites.map((c) => c.entry),
  ].map((e) => ({ key: e.request_id, ok: e.ok, kind: e.kind }))
  // the audit recorder may still be behind: read until every accepted write is there, at most a minute
  let audit = exactlyOnce(auditable, await auditByRequest(kit.api, svc))
  for (let waited = 0; audit.lost > 0 && waited < 60; waited += 5) {
    await sleep(5000)
    audit = exactlyOnce(auditable, await auditByRequest(kit.api, svc))
  }
  const dashboard = must(await kit.api.get('/api/statistics/dashboard', svc), 200, 'dashboard')
  const storedTicketCount = [...stored.values()].reduce((a, b) => a + b, 0) + 1 // + the ticket read
  const aiSent = book.all.filter((e) => e.kind === 'ai.query').length
  const aiAccepted = book.all.filter((e) => e.kind === 'ai.query' && e.ok).length
  let storedMessages = 0
  for (const list of messages.values()) storedMessages += list.length
  const statistics = {
    total_tickets: dashboard.total_tickets,
    tickets_stored: storedTicketCount,
    today_messages: dashboard.today_messages,
    messages_stored: storedMessages,
    total_sessions: dashboard.total_sessions,
    sessions: sessions.length,
    // an answer whose reply was lost on the way back may be counted: between the accepted and the sent
    ai_usage_today: dashboard.ai_usage_today,
    ai_queries_accepted: aiAccepted,
    ai_queries_sent: aiSent,
    ok:
      dashboard.ai_usage_today >= aiAccepted &&
      dashboard.ai_usage_today <= aiSent &&
      dashboard.total_tickets === storedTicketCount &&
      dashboard.today_messages === storedMessages &&
      dashboard.total_sessions === sessions.length,
  }
  const sockets = socketCheck(ctx.followers, messages)

  // ---- failures per kill -------------------------------------------------------------------------------------------
  const failures = book.all.filter((e) => !e.ok)
  const perKill: KillRecord[] = killed.map((k, i) => {
    const until_ = killed[i + 1]?.killed_at ?? Number.POSITIVE_INFINITY
    const mine = failures.filter((e) => (e.done || e.sent) >= k.killed_at && (e.done || e.sent) < until_)
    const thatSecond = book.all.filter((e) => e.sent >= k.killed_at && e.sent < k.killed_at + 1000).length
    const byKind: Record<string, number> = {}
    for (const e of mine) {
      const key = `${e.kind} ${e.status || e.error || 'no answer'}`
      byKind[key] = (byKind[key] ?? 0) + 1
    }
    const inFlight = mine.filter((e) => e.sent < k.killed_at).length
    const lastFailure = mine.length ? Math.max(...mine.map((e) => e.sent)) : undefined
    return {
      target: k.target,
      killed_at_s: round(k.killed_at / 1000),
      ready_at_s: round(k.ready_at / 1000),
      requests_that_second: thatSecond,
      failed: mine.length,
      failed_in_flight: inFlight,
      failed_sent_after: mine.filter((e) => e.sent >= k.killed_at).length,
      failed_in_flight_percent_of_that_second: thatSecond ? round((100 * inFlight) / thatSecond, 2) : 0,
      last_failure_after_s: lastFailure === undefined ? null : round((lastFailure - k.killed_at) / 1000),
      failed_by_kind: byKind,
    }
  })
  const beforeKills = failures.filter((e) => (e.done || e.sent) < (killed[0]?.killed_at ?? Number.POSITIVE_INFINITY))
  const statusesOfFailures: Record<string, number> = {}
  for (const e of failures) {
    const key = `${e.kind} ${e.status || e.error || 'no answer'}`
    statusesOfFailures[key] = (statusesOfFailures[key] ?? 0) + 1
  }
  const byKind: Record<string, { sent: number; ok: number }> = {}
  for (const e of book.all) {
    byKind[e.kind] ??= { sent: 0, ok: 0 }
    byKind[e.kind]!.sent++
    if (e.ok) byKind[e.kind]!.ok++
  }

  const result = {
    seconds: opts.seconds,
    load_ended_s: round(loadEnded / 1000),
    rate: opts.rate,
    down_s: opts.downS,
    cpu_percent_of_one_core: cpuUsed,
    load_average_1m: { before: round(loadBefore), after: round(loadAfter) },
    requests: book.all.length,
    requests_per_s: round(book.all.length / (loadEnded / 1000)),
    failed: failures.length,
    failed_before_any_kill: beforeKills.length,
    refused_then_sent_to_the_other_gateway: book.all.reduce((a, e) => a + e.refused, 0),
    by_kind: byKind,
    failures_by_kind_and_status: statusesOfFailures,
    kills: perKill,
    writes: { tickets: ticketCheck, agent_messages: agentCheck, customer_messages: customerCheck, config: configCheck },
    audit,
    statistics,
    sockets,
  }
  print(result)
  return result
}

/** Kills one replica (or NATS) -9 and starts it again `downS` later; the times are the book's. */
async function killAndRestart(
  fleet: Awaited<ReturnType<typeof startFleet>>,
  nats: OwnNats | undefined,
  target: string,
  i: number,
  downS: number,
  book: RequestBook,
) {
  if (target === 'nats') {
    if (!nats) throw new Error('no NATS server of the bench to kill (nats-server not found)')
    const killed_at = book.now()
    await nats.kill()
    await sleep(downS * 1000)
    await nats.start()
    return { target: 'nats', killed_at, ready_at: book.now() }
  }
  // replicas 2, 1, 2, … in turn
  const name = `${target}.${2 - (i % 2)}`
  const child = fleet.children.find((c) => c.name === name)
  if (!child) throw new Error(`no replica ${name} in the fleet`)
  const killed_at = book.now()
  const exited = once(child.process, 'exit')
  child.process.kill('SIGKILL')
  await exited
  await sleep(downS * 1000)
  await fleet.restart(name)
  return { target: name, killed_at, ready_at: book.now() }
}

function print(r: any) {
  console.log(
    `chaos: ${r.requests} requests (${r.requests_per_s}/s) in ${r.load_ended_s} s, ${r.failed} failed (${r.failed_before_any_kill} before any kill); refused connections sent to the other gateway: ${r.refused_then_sent_to_the_other_gateway}`,
  )
  console.log(
    '| killed | at s | ready at s | requests that second | failed (in flight / sent after) | in flight, % of that second | last failed sent after s |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const k of r.kills as KillRecord[])
    console.log(
      `| ${k.target} | ${k.killed_at_s} | ${k.ready_at_s} | ${k.requests_that_second} | ${k.failed} (${k.failed_in_flight} / ${k.failed_sent_after}) ${JSON.stringify(k.failed_by_kind)} | ${k.failed_in_flight_percent_of_that_second} | ${k.last_failure_after_s ?? '—'} |`,
    )
  console.log(
    `  CPU while loaded (% of one core, 2 cores): ${cpuText(r.cpu_percent_of_one_core)}; load average ${r.load_average_1m.before} → ${r.load_average_1m.after}`,
  )
  for (const [what, c] of Object.entries(r.writes as Record<string, ReturnType<typeof exactlyOnce>>))
    console.log(
      `  ${what}: ${c.accepted} accepted of ${c.written}, lost ${c.lost}, doubled ${c.doubled}, failed but stored ${c.failed_but_stored} ${c.ok ? 'OK' : `FAIL ${c.examples.join('; ')}`}`,
    )
  const a = r.audit as ReturnType<typeof exactlyOnce>
  console.log(
    `  audit by request id: ${a.accepted} accepted writes, missing ${a.lost}, doubled ${a.doubled} ${a.ok ? 'OK' : `FAIL ${a.examples.join('; ')}`}`,
  )
  const s = r.statistics
  console.log(
    `  statistics: tickets ${s.total_tickets} counted / ${s.tickets_stored} stored, messages today ${s.today_messages} / ${s.messages_stored}, sessions ${s.total_sessions} / ${s.sessions}, AI answers ${s.ai_usage_today} / ${s.ai_queries_accepted} accepted of ${s.ai_queries_sent} ${s.ok ? 'OK' : 'FAIL'}`,
  )
  const w = r.sockets
  console.log(
    `  hub clients: ${w.clients} (${w.connected_at_the_end} connected at the end), reconnects ${w.reconnects}, frames ${w.delivered}, lost ${w.lost} (${w.lost_overtaken_before_a_rejoin} overtaken before a rejoin), doubled ${w.doubled} (${w.doubled_on_one_socket} on one socket, ${w.doubled_by_resume} by a resume), out of order ${w.out_of_order} (late by p50 ${w.out_of_order_late_ms.p50} ms, max ${w.out_of_order_late_ms.max} ms), error frames ${w.error_frames} ${w.error_frame_examples.join('; ')} ${w.ok ? 'OK' : `FAIL ${w.examples.join('; ')}`}`,
  )
  console.log(`  failures by kind and status: ${JSON.stringify(r.failures_by_kind_and_status)}`)
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const round = (v: number, digits = 1) => Number(v.toFixed(digits))
