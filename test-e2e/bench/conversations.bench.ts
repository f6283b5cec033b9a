// Agent replies through the gateway (`POST /api/omni/sessions/:id/messages`) under load, and how long their
// `conversations.message.created` takes to reach a fan-out subscriber on the fleet's NATS (what the realtime hub
// will be) after the POST's answer: one post at a time, and under the same load. On the shared bench fleet.
// Beside it, measured in the same run (issue 24 §4): the ceiling — the same writes replayed straight to PostgreSQL
// (ceiling.ts: every table's rows per message read from PostgreSQL's own counters during the POST phase) — the
// CPU each unit spent per message, and POST → event at 50 % and 80 % of the measured maximum, open loop.
import { expandPermissions, signInternalPrincipal } from '@switchboard/auth'
import type { Fleet } from '@switchboard/cli'
import { PRINCIPAL_HEADER } from '@switchboard/contracts'
import { createJetStreamBus } from '@switchboard/events'
import { createDatabase, type Logger } from '@switchboard/platform'
import autocannon from 'autocannon'
import { conversationsKit, must, type Reachable } from '../harness/conversations-kit.ts'
import { decodeJwt } from '../harness/identity-kit.ts'
import { profileText, replayCeiling, STATS_FLUSH_MS, tableWrites, writesPerMessage } from './ceiling.ts'
import { fmt, httpSender, type OpenLoopResult, openLoop, percentile } from './lib.ts'
import { cpuMeter } from './machine.ts'

const SESSIONS = 50
const CONNECTIONS = 50

/** Arrival times of message events by message id, and answer times of posts: paired as both sides show up. */
function latencyBook() {
  const arrived = new Map<string, number>()
  const answered = new Map<string, number>()
  const samples: number[] = []
  const waiters = new Map<string, () => void>()
  let last = 0
  const pair = (id: string) => {
    const a = answered.get(id)
    const e = arrived.get(id)
    if (a === undefined || e === undefined) return
    // an event may beat the answer back through the gateway: that is no delay at all
    samples.push(Math.max(0, e - a))
    answered.delete(id)
    arrived.delete(id)
  }
  return {
    samples,
    arrive(id: string) {
      last = performance.now()
      arrived.set(id, last)
      waiters.get(id)?.()
      pair(id)
    },
    answer(id: string, at: number) {
      answered.set(id, at)
      pair(id)
    },
    /** resolves when the event of `id` has arrived (or had already) */
    seen(id: string, timeoutMs = 2000) {
      if (arrived.has(id) || !answered.has(id)) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs)
        waiters.set(id, () => {
          clearTimeout(timer)
          waiters.delete(id)
          resolve(true)
        })
      })
    },
    /** until no event has come for a second (the outbox drained), at most a minute */
    async quiet() {
      const deadline = performance.now() + 60_000
      while (performance.now() - last < 1000 && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    /** answers whose event never came */
    missing: () => answered.size,
    reset() {
      samples.length = 0
      answered.clear()
      arrived.clear()
    },
  }
}

export async function benchConversationMessages(
  fleet: Reachable,
  namespace: string,
  logger: Logger,
  durationS: number,
  warmUpS: number,
  running?: Fleet,
) {
  const kit = await conversationsKit(fleet)
  const { api } = kit
  const scope = kit.freshScope('benchmsg')
  // One agent holding every session: its capacity is the only limit on how many it may hold.
  const agent = await kit.agent(scope, 'replier', { max_concurrent: 100, online: true })
  const customer = await kit.customer(scope, 'asker')
  await kit.onlineAgents(scope, 1)
  const hub = kit.hub(scope)
  const sessions: string[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const { session } = await hub.open(`bench question ${i}`, customer.user_id)
    must(
      await api.post(
        '/api/session-transfer/to-agent',
        { session_id: session.id, target_agent_id: agent.user_id },
        kit.svc(scope),
      ),
      200,
      'to-agent',
    )
    sessions.push(session.id)
  }
  const token = (await kit.agentLogin(agent)).token

  const bus = await createJetStreamBus({ url: fleet.env.NATS_URL!, prefix: namespace, logger, name: 'bench-fanout' })
  const book = latencyBook()
  const sub = await bus.subscribe('conversations.message.created', async ({ envelope }) => {
    const data = envelope.data as { message_id: string; sender: string }
    if (data.sender === 'agent') book.arrive(data.message_id)
  })
  try {
    // One at a time: the event's own path (outbox row, relay kicked after commit, JetStream, push consumer).
    const post = (i: number) =>
      api.post(`/api/omni/sessions/${sessions[i % SESSIONS]}/messages`, { content: `reply ${i}` }, { token })
    for (let i = 0; i < 20; i++) await post(i) // warm-up
    book.reset()
    const sequential = Number(process.env.BENCH_EVENT_POSTS ?? 200)
    let lost = 0
    for (let i = 0; i < sequential; i++) {
      const r = await post(i)
      const at = performance.now()
      const id = must(r, 201, 'agent reply').id as string
      book.answer(id, at)
      if (!(await book.seen(id))) lost++
    }
    const alone = {
      posts: sequential,
      lost,
      p50_ms: percentile(book.samples, 50),
      p99_ms: percentile(book.samples, 99),
    }
    book.reset()

    // Under load: autocannon's connections spread over the sessions; every answer's id is paired with its event.
    let next = 0
    const viaGateway = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const load = (seconds: number, track: boolean, url = fleet.url, headers: Record<string, string> = viaGateway) =>
      autocannon({
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers,
        requests: [
          {
            method: 'POST',
            body: JSON.stringify({ content: 'bench reply under load' }),
            setupRequest: (req) => ({ ...req, path: `/api/omni/sessions/${sessions[next++ % SESSIONS]}/messages` }),
            onResponse: (status, body) => {
              if (!track || status !== 201) return
              book.answer((JSON.parse(body) as { id: string }).id, performance.now())
            },
          },
        ],
      })
    // Each phase starts with the outbox drained: a backlog left by the one before would count against it.
    await load(warmUpS, false)
    await book.quiet()
    // PostgreSQL's row counters of every unit's schema, before the two measured phases and after them (flushed)
    const stats = await createDatabase<any>(
      { driver: 'postgres', url: fleet.env.DATABASE_URL!, schema: 'public', pool_max: 1 },
      logger,
    )
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS))
    const writesBefore = await tableWrites(stats.db, namespace)
    // The same load straight to the service with the principal the gateway would sign: what the gateway costs.
    const direct = await load(durationS, false, kit.conversationsUrl, {
      [PRINCIPAL_HEADER]: await signInternalPrincipal(fleet.env.INTERNAL_SECRET!, agentPrincipal(token), 3600),
      'content-type': 'application/json',
    })
    await book.quiet()
    book.reset()
    const cpu = running ? cpuMeter(running) : undefined
    cpu?.start()
    const result = await load(durationS, true)
    const cpuPost = cpu?.stop()
    // events still queued when autocannon stops are late, not lost: wait for the outbox to drain
    await book.quiet()
    await new Promise((r) => setTimeout(r, STATS_FLUSH_MS))
    const writes = writesPerMessage(writesBefore, await tableWrites(stats.db, namespace))
    await stats.close()
    const loaded = {
      rps: result.requests.average,
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      total: result.requests.total,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    }
    const underLoad = {
      events: book.samples.length,
      lost: book.missing(),
      p50_ms: percentile(book.samples, 50),
      p99_ms: percentile(book.samples, 99),
    }
    console.log(
      `conversations: agent message POST through the gateway, ${CONNECTIONS} connections over ${SESSIONS} sessions, ${durationS} s: ` +
        `${fmt(loaded.rps, 0)} req/s (measured against its ceiling below), p50 ${loaded.p50_ms} ms, p99 ${loaded.p99_ms} ms (target ≤ 50 ms), ` +
        `non-2xx ${loaded.non2xx}, errors ${loaded.errors}; ` +
        `direct to conversations ${fmt(direct.requests.average, 0)} req/s, p99 ${direct.latency.p99} ms, non-2xx ${direct.non2xx} ` +
        `→ gateway / direct ${fmt((100 * loaded.rps) / direct.requests.average)}%`,
    )
    console.log(
      `conversations: POST answer → conversations.message.created at a fan-out subscriber: ` +
        `one at a time (${alone.posts} posts) p50 ${fmt(alone.p50_ms, 2)} ms, p99 ${fmt(alone.p99_ms, 2)} ms, lost ${alone.lost}; ` +
        `under the load (${underLoad.events} events) p50 ${fmt(underLoad.p50_ms, 2)} ms, p99 ${fmt(underLoad.p99_ms, 2)} ms, ` +
        `lost ${underLoad.lost} (target p99 ≤ 50 ms)`,
    )
    const directResult = { rps: direct.requests.average, p99_ms: direct.latency.p99, non2xx: direct.non2xx }

    // CPU per unit per message during the POST phase (ms of CPU per message; % of one core over the phase)
    const cpuPerMessage: Record<string, { pct: number; ms_per_message: number }> = {}
    for (const [unit, pct] of Object.entries(cpuPost ?? {}))
      cpuPerMessage[unit] = { pct, ms_per_message: (10 * pct) / loaded.rps }
    console.log(
      `conversations: CPU during the POST phase (% of one core, 2 cores; ms per message): ` +
        Object.entries(cpuPerMessage)
          .sort(([, a], [, b]) => b.pct - a.pct)
          .map(([u, c]) => `${u} ${c.pct}% (${fmt(c.ms_per_message, 2)})`)
          .join(', '),
    )
    console.log(
      `conversations: rows written per message (${writes.messages} messages, + inserted ~ updated - deleted): ${profileText(writes.profile)}`,
    )

    // The ceiling: the same rows straight to PostgreSQL, from this process, while the fleet idles.
    const clients = Number(process.env.BENCH_CEILING_CLIENTS ?? 16)
    const ceilingCpu = running ? cpuMeter(running) : undefined
    ceilingCpu?.start()
    const ceiling = await replayCeiling({
      databaseUrl: fleet.env.DATABASE_URL!,
      namespace,
      profile: writes.profile,
      sessions,
      clients,
      seconds: Number(process.env.BENCH_CEILING_S ?? durationS),
      logger,
    }).catch((err: Error) => {
      // said, not thrown: the figures before and after it still come
      console.log(`conversations: CEILING FAILED — ${err.message.slice(0, 2000)}`)
      return { messages_per_s: Number.NaN, messages: 0, failed: 0, seconds: 0, error: err.message.slice(0, 2000) }
    })
    const ceilingCpuUsed = ceilingCpu?.stop()
    const ratio = loaded.rps / ceiling.messages_per_s
    // CPU per message, the path's (every unit and the engines) against the ceiling's: holds on a loaded machine
    const pathCpuMs = Object.entries(cpuPerMessage)
      .filter(([unit]) => !['machine', 'others', 'kernel', 'bench'].includes(unit))
      .reduce((n, [, c]) => n + c.ms_per_message, 0)
    const ceilingCpuMs = 'cpu_ms_per_message' in ceiling ? ceiling.cpu_ms_per_message : Number.NaN
    console.log(
      `conversations: CEILING — the same writes straight to PostgreSQL, ${clients} clients: ` +
        `${fmt(ceiling.messages_per_s, 0)} messages/s (${ceiling.messages} in ${fmt(ceiling.seconds)} s, failed ${ceiling.failed}; ` +
        `machine ${ceilingCpuUsed?.machine ?? '?'}%) ` +
        `→ POST through the gateway ÷ ceiling = ${fmt(ratio * 100)}% (target ≥ 50 %); CPU per message: the path ` +
        `${fmt(pathCpuMs, 2)} ms (units + engines) ÷ the ceiling's ${fmt(ceilingCpuMs, 2)} ms (pgbench + its backends) = ` +
        `${fmt(pathCpuMs / ceilingCpuMs, 1)}×`,
    )

    // POST → event at 50 % and 80 % of the measured maximum, open loop: the path's latency, not a queue's.
    const openS = Number(process.env.BENCH_OPEN_LOOP_S ?? 5)
    const atRates: Array<{ share: number; post: OpenLoopResult; event: typeof underLoad }> = []
    const sender = httpSender()
    for (const share of [0.5, 0.8]) {
      await book.quiet()
      book.reset()
      let n = 0
      const post = await openLoop(share * loaded.rps, openS, async () => {
        const sent = performance.now()
        const res = await sender.send(
          new URL(`/api/omni/sessions/${sessions[n++ % SESSIONS]}/messages`, fleet.url).href,
          { method: 'POST', headers: viaGateway, body: JSON.stringify({ content: 'bench reply at a fixed rate' }) },
        )
        if (res.status !== 201) return false
        const body = JSON.parse(res.text) as { id?: string }
        if (!body.id) return false
        book.answer(body.id, sent)
        return true
      })
      await book.quiet()
      const event = {
        events: book.samples.length,
        lost: book.missing(),
        p50_ms: percentile(book.samples, 50),
        p99_ms: percentile(book.samples, 99),
      }
      atRates.push({ share, post, event })
      console.log(
        `conversations: at ${share * 100}% of the maximum (${fmt(post.rate, 0)}/s, open loop, ${openS} s): POST p50 ${fmt(post.p50)} ms, ` +
          `p99 ${fmt(post.p99)} ms, answered ${fmt(post.answered_per_s, 0)}/s, failed ${post.failed}, skipped ${post.skipped}; ` +
          `POST sent → event at the fan-out subscriber p50 ${fmt(event.p50_ms)} ms, p99 ${fmt(event.p99_ms)} ms, lost ${event.lost}`,
      )
    }
    sender.close()
    return {
      post: loaded,
      post_direct: directResult,
      event_alone: alone,
      event_under_load: underLoad,
      cpu_post_phase: cpuPerMessage,
      writes_per_message: writes.profile,
      ceiling: { ...ceiling, cpu: ceilingCpuUsed },
      ratio_to_ceiling: ratio,
      cpu_ms_per_message: { path: pathCpuMs, ceiling: ceilingCpuMs },
      open_loop: atRates,
    }
  } finally {
    await sub.stop()
    await bus.close()
  }
}

/** The principal the gateway forwards for an agent's token (its kind, roles, permissions and scope). */
function agentPrincipal(token: string) {
  const c = decodeJwt(token).payload as Record<string, any>
  return {
    user_id: c.sub,
    kind: 'agent' as const,
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
