import { createWriteStream, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { dropNamespace, SERVICES, startFleet } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { startPrimaryStandIn } from '../../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { AGENTS, CUSTOMERS, chaosCast, DOC } from './chaos-cast.ts'
import {
  auditByRequest,
  configHistory,
  exactlyOnce,
  quiet,
  sessionMessages,
  socketCheck,
  storedTickets,
} from './chaos-checks.ts'
import { killAndRestart } from './chaos-kill.ts'
import { type Follower, follower, requestBook, type Sent } from './chaos-load.ts'
import { type OwnNats, ownNats } from './chaos-nats.ts'
import { type KillRecord, print } from './chaos-report.ts'
import { fmt } from './lib.ts'
import { cpuMeter } from './machine.ts'

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

  // ---- the cast: agents, customers, sessions (each assigned to an agent), a ticket customer (chaos-cast.ts) ------
  const { agents, customers, sessions, agentTokens, customerTokens, readMe } = await chaosCast(kit, scope, ctx.tag)

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const round = (v: number, digits = 1) => Number(v.toFixed(digits))
