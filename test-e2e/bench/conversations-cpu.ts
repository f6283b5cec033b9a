// What an agent's message costs conversations itself, in CPU: `npm run bench -- conversations-cpu`.
// No fleet: the conversations service is built in this process on PostgreSQL (its own schema), Redis and a real
// JetStream bus (its own prefix), with its outbox relay running as in production. A supervisor's replies go in
// through app.inject (Fastify's full request path: principal header, schemas, the route, the transaction, the
// outbox, the audit record), `concurrency` at a time over 16 sessions; BENCH_CPU_SENDER=customer posts the
// customers' messages as the hub does instead. The figure is this process's CPU (process.cpuUsage, user + system)
// per message, including the relay publishing the outbox rows to NATS.
// Rounds are repeated and the median given with the spread, because the machine is shared: compare two codes by
// alternating whole runs of this bench, never by one run each.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dropNamespace, loadUnit, SERVICES } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, principalHeader, testPrincipal, uniqueId } from '@switchboard/testing'

export interface ConversationsCpuResult {
  sender: ConversationsCpuOptions['sender']
  messages_per_round: number
  concurrency: number
  rounds: number
  /** CPU ms of this process per agent message, each round in order */
  cpu_ms_per_message: number[]
  median_cpu_ms_per_message: number
  spread_pct: number
  /** wall ms per message (throughput of this one process, for reading the CPU figure) */
  wall_ms_per_message: number[]
  load_1min: [before: number, after: number]
}

export interface ConversationsCpuOptions {
  messages: number
  rounds: number
  concurrency: number
  warmUp: number
  /** `agent` (default): a supervisor's replies over /api/omni; `customer`: the customers' messages as the hub posts them */
  sender: 'agent' | 'customer'
}

export function conversationsCpuOptions(): ConversationsCpuOptions {
  return {
    messages: Number(process.env.BENCH_CPU_MESSAGES ?? 1000),
    rounds: Number(process.env.BENCH_CPU_ROUNDS ?? 5),
    concurrency: Number(process.env.BENCH_CPU_CONCURRENCY ?? 16),
    warmUp: Number(process.env.BENCH_CPU_WARM_UP ?? 500),
    sender: process.env.BENCH_CPU_SENDER === 'customer' ? 'customer' : 'agent',
  }
}

const SESSIONS = 16
/** What this bench drives of the service's app (platform's ServiceApp, a Fastify instance). */
interface InProcessApp {
  ready(): PromiseLike<unknown>
  whenStarted(): Promise<unknown>
  close(): PromiseLike<unknown>
  inject(req: {
    method: 'POST'
    url: string
    payload: object
    headers: Record<string, string>
  }): Promise<{ statusCode: number; body: string }>
}
const load1 = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

export async function benchConversationsCpu(
  logger: Logger,
  opts: ConversationsCpuOptions = conversationsCpuOptions(),
): Promise<ConversationsCpuResult> {
  const engines = engineUrls()
  const namespace = uniqueId('benchcpu')
  const secret = randomBytes(24).toString('base64url')
  // by path, as the runners load a unit (this package does not depend on each service)
  const conversations = await loadUnit(SERVICES.find((s) => s.name === 'conversations')!)
  const base = conversations.loadConfig({ INTERNAL_SECRET: secret, LOG_LEVEL: 'warn', DB_DRIVER: 'postgres' })
  const app = (await conversations.build(
    {
      ...base,
      port: 0,
      database: { driver: 'postgres', url: engines.databaseUrl, schema: `${namespace}_conversations`, pool_max: 10 },
      cache: { driver: 'redis', url: engines.redisUrl, prefix: `${namespace}:` },
      bus: { driver: 'nats', url: engines.natsUrl, prefix: namespace },
    },
    { logger },
  )) as unknown as InProcessApp
  try {
    await app.ready()
    await app.whenStarted()
    const hub = await principalHeader(
      secret,
      testPrincipal({ user_id: 'realtime-voice', kind: 'service', roles: [], permissions: ['*'] }),
    )
    const supervisor = await principalHeader(
      secret,
      testPrincipal({
        user_id: 'sup-1',
        kind: 'agent',
        roles: ['supervisor'],
        permissions: ['workspace.read', 'workspace.write', 'workspace.supervise'],
      }),
    )
    const sessions: string[] = []
    for (let i = 0; i < SESSIONS; i++) {
      const id = `${namespace}-s${i}`
      const res = await app.inject({
        method: 'POST',
        url: `/internal/sessions/${id}/messages`,
        payload: { sender: 'customer', customer_id: `cust-${i}`, content: 'Hello, I need help' },
        headers: hub,
      })
      if (res.statusCode !== 201) throw new Error(`session ${id}: ${res.statusCode} ${res.body}`)
      sessions.push(id)
    }
    const reply = async (i: number) => {
      const res = await app.inject(
        opts.sender === 'agent'
          ? {
              method: 'POST',
              url: `/api/omni/sessions/${sessions[i % SESSIONS]}/messages`,
              payload: { content: `Thanks for waiting — reply ${i}` },
              headers: supervisor,
            }
          : {
              method: 'POST',
              url: `/internal/sessions/${sessions[i % SESSIONS]}/messages`,
              payload: { sender: 'customer', customer_id: `cust-${i % SESSIONS}`, content: `One more thing ${i}` },
              headers: hub,
            },
      )
      if (res.statusCode !== 201) throw new Error(`reply ${i}: ${res.statusCode} ${res.body}`)
    }
    const drive = async (n: number) => {
      let next = 0
      const worker = async () => {
        while (next < n) await reply(next++)
      }
      await Promise.all(Array.from({ length: opts.concurrency }, worker))
    }
    await drive(opts.warmUp)
    const cpu: number[] = []
    const wall: number[] = []
    const loadBefore = load1()
    for (let round = 0; round < opts.rounds; round++) {
      await sleep(1000) // the relay has published the previous round's rows
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await drive(opts.messages)
      const t1 = performance.now()
      await sleep(500) // the relay publishes what this round left; counted in the round's CPU
      const c = process.cpuUsage(c0)
      cpu.push(+((c.user + c.system) / 1000 / opts.messages).toFixed(4))
      wall.push(+((t1 - t0) / opts.messages).toFixed(4))
      console.log(`  round ${round + 1}: ${cpu.at(-1)} ms CPU / message, ${wall.at(-1)} ms wall / message`)
    }
    const m = median(cpu)
    const result: ConversationsCpuResult = {
      sender: opts.sender,
      messages_per_round: opts.messages,
      concurrency: opts.concurrency,
      rounds: opts.rounds,
      cpu_ms_per_message: cpu,
      median_cpu_ms_per_message: +m.toFixed(4),
      spread_pct: +(((Math.max(...cpu) - Math.min(...cpu)) / m) * 100).toFixed(1),
      wall_ms_per_message: wall,
      load_1min: [loadBefore, load1()],
    }
    console.log(
      `conversations CPU per ${opts.sender} message (${opts.concurrency} at a time, ${opts.rounds} × ${opts.messages}): ` +
        `median ${result.median_cpu_ms_per_message} ms, min ${Math.min(...cpu)}, max ${Math.max(...cpu)} ` +
        `(spread ${result.spread_pct} %), load ${result.load_1min.join(' → ')}`,
    )
    return result
  } finally {
    await app.close()
    await dropNamespace(namespace, engines).catch((err) => console.error('namespace cleanup failed', err))
  }
}
