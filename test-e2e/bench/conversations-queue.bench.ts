// The queue's concurrency proof on a fleet of its own (3 replicas of every service): 300 waiting sessions,
// 20 agents of capacity 5, the queue processed by every conversations replica at once; per round exactly 100
// assigned, no agent past 5 open sessions, no session handed over by the queue twice. A fresh workspace a round.
import { signInternalPrincipal } from '@switchboard/auth'
import { dropNamespace, startFleet } from '@switchboard/cli'
import { PRINCIPAL_HEADER } from '@switchboard/contracts'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { conversationsKit, hubPrincipal, must, type Scope } from '../harness/conversations-kit.ts'
import { client } from '../harness/http.ts'

const AGENTS = 20
const CAPACITY = 5
const SESSIONS = 300
/** concurrent process-queue calls per replica */
const CALLS_PER_REPLICA = 2

export interface QueueRound {
  assigned: number
  assigned_by_calls: number
  over_capacity: number
  double_assignments: number
  waiting_after: number
  process_ms: number
}

/** `fn` over 0..n-1, `width` at a time. */
async function pool(n: number, width: number, fn: (i: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++)
    }),
  )
}

export async function benchQueueConcurrency(env: NodeJS.ProcessEnv, logger: Logger, rounds: number, budgetS: number) {
  const namespace = uniqueId('benchq')
  const fleet = await startFleet({
    replicas: 3,
    gatewayReplicas: 1,
    port: 0,
    servicePort: 0,
    namespace,
    // No timer pass: the queue is processed by the calls below (and the passes changes kick), all concurrent.
    env: { ...env, QUEUE_INTERVAL_MS: '3600000' },
    logger,
    output: (line) => {
      if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`)
    },
  })
  try {
    const kit = await conversationsKit({ url: fleet.gatewayUrls[0]!, env, serviceUrls: fleet.serviceUrls })
    const { api } = kit
    const replicas = fleet.serviceUrls.conversations!
    // The agents' users, made once: each round makes them agents of that round's workspace.
    const pool0 = kit.freshScope('benchqusers')
    const users: Array<Awaited<ReturnType<typeof kit.customer>>> = []
    for (let i = 0; i < AGENTS; i++) users.push(await kit.customer(pool0, `qagent${i}`))

    const started = performance.now()
    const results: QueueRound[] = []
    for (let round = 0; round < rounds; round++) {
      if (round > 0 && (performance.now() - started) / 1000 > budgetS) break
      results.push(await oneRound(kit.freshScope(`benchq${round}r`)))
    }
    const seconds = (performance.now() - started) / 1000
    const bad = results.filter(
      (r) => r.assigned !== AGENTS * CAPACITY || r.over_capacity > 0 || r.double_assignments > 0,
    ).length
    const sum = (k: keyof QueueRound) => results.reduce((n, r) => n + r[k], 0)
    const ms = results.map((r) => r.process_ms).sort((a, b) => a - b)
    console.log(
      `queue concurrency (3 conversations replicas, ${CALLS_PER_REPLICA} process-queue calls each at once): ` +
        `${results.length} of ${rounds} rounds in ${seconds.toFixed(0)} s${results.length < rounds ? ` (stopped at the ${budgetS} s budget)` : ''}; ` +
        `${SESSIONS} waiting, ${AGENTS} agents × ${CAPACITY}: assigned per round ${[...new Set(results.map((r) => r.assigned))].join('/')} (target 100), ` +
        `over capacity ${sum('over_capacity')}, double assignments ${sum('double_assignments')}, rounds failing ${bad}; ` +
        `by the explicit calls ${sum('assigned_by_calls')} of ${sum('assigned')}; pass ${ms[0]?.toFixed(0)}–${ms.at(-1)?.toFixed(0)} ms`,
    )
    return { rounds: results.length, asked: rounds, seconds, failing_rounds: bad, per_round: results }

    async function oneRound(scope: Scope): Promise<QueueRound> {
      const staff = kit.svc(scope)
      // A shift for an agent who never comes online covers now: the workspace "has shifts" and none of the routed
      // agents is on one, so every session waits while they come online (their kicks find nobody to route to). The
      // shift's agent must exist in the workspace (conversations refuses an unknown one: CONVERSATIONS_UNKNOWN_AGENT).
      const keeper = await kit.agent(scope, 'gatekeeper')
      const gate = must(
        await api.post(
          '/api/shifts',
          {
            agent_id: keeper.user_id,
            shift_type: 'morning',
            start_time: new Date(Date.now() - 3_600_000).toISOString(),
            end_time: new Date(Date.now() + 3_600_000).toISOString(),
          },
          staff,
        ),
        201,
        'gate shift',
      )
      const agents = []
      for (let i = 0; i < AGENTS; i++) {
        agents.push(await kit.agent(scope, `qagent${i}`, { max_concurrent: CAPACITY, online: true, user: users[i]! }))
      }
      await kit.onlineAgents(scope, AGENTS)
      const hub = kit.hub(scope)
      await pool(SESSIONS, 12, async (i) => {
        // the hub names the customer (a user id it authenticated); conversations takes it as given
        const { session } = await hub.open(`waiting ${i}`, `customer-${i}`)
        const r = must(
          await api.post('/api/session-transfer/to-human', { session_id: session.id }, staff),
          200,
          'to-human',
        )
        if (!r.is_waiting) throw new Error(`session ${i} was routed past the gate`)
      })
      const queued = must(await api.get('/api/omni/workspace', staff), 200, 'overview')
      if (queued.waiting_queue !== SESSIONS) throw new Error(`${queued.waiting_queue} waiting, not ${SESSIONS}`)

      // Open the gate (no pass is kicked by a shift change), then every replica processes the queue at once.
      const gone = await api.call('DELETE', `/api/shifts/${gate.id}`, staff)
      if (gone.status !== 204) throw new Error(`gate delete: ${gone.status} ${gone.text}`)
      const header = {
        [PRINCIPAL_HEADER]: await signInternalPrincipal(env.INTERNAL_SECRET!, hubPrincipal(scope, 'bench'), 600),
      }
      const t0 = performance.now()
      const answers = await Promise.all(
        replicas.flatMap((url) =>
          Array.from({ length: CALLS_PER_REPLICA }, () =>
            client(url).post('/api/session-transfer/process-queue', undefined, { headers: header }),
          ),
        ),
      )
      const process_ms = performance.now() - t0
      const assigned_by_calls = answers.reduce((n, r) => n + must(r, 200, 'process-queue').assigned, 0)

      // The outcome, read back through the gateway.
      const after = must(await api.get('/api/omni/workspace', staff), 200, 'overview after')
      let over = 0
      for (const a of agents) {
        const open = must(
          await api.get(`/api/omni/sessions?agent_id=${a.user_id}&page_size=1`, staff),
          200,
          'sessions of an agent',
        )
        if (open.total > CAPACITY) over++
      }
      const history = must(await api.get('/api/session-transfer/history?limit=200', staff), 200, 'history')
      if (history.count >= 200) throw new Error('history list is full: the double-assignment count would be partial')
      const perSession = new Map<string, number>()
      for (const h of history.items) {
        if (h.kind === 'queue') perSession.set(h.session_id, (perSession.get(h.session_id) ?? 0) + 1)
      }
      const handed = must(await api.get('/api/omni/sessions?status=transferred&page_size=1', staff), 200, 'handed')
      return {
        assigned: handed.total,
        assigned_by_calls,
        over_capacity: over,
        double_assignments: [...perSession.values()].filter((n) => n > 1).length,
        waiting_after: after.waiting_queue,
        process_ms,
      }
    }
  } finally {
    await fleet.close()
    await dropNamespace(namespace, engineUrls()).catch((err) => console.error('namespace cleanup failed', err))
  }
}
