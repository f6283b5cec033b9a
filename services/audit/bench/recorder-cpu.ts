// What storing an audit record costs, in CPU, with audit as one process (its own `main.ts`) against PostgreSQL and a
// real JetStream stream. Per round: a fresh schema and stream prefix, audit started, 2,000 records to warm it up,
// then `BENCH_AUDIT_EVENTS` (20,000) published as fast as JetStream takes them (256 in flight) while audit drains
// them; the CPU of audit's process and of its PostgreSQL backends (found by application_name) is read from /proc
// before publishing and after the last record is stored. Rounds alternate the codes given:
//   bash scripts/toolchain.sh env node services/audit/bench/recorder-cpu.ts before=<dir>/src/main.ts after=services/audit/src/main.ts
// (a `before` is the audit source of another commit, unpacked inside services/audit so its imports resolve:
//   git archive 72b3198^ services/audit/src | tar -x -C /tmp && cp -r /tmp/services/audit/src services/audit/.bench-before/src)
// BENCH_AUDIT_RATE=<records/s> publishes at that fixed rate instead (what the fleet sends at its pace: batches are
// only what arrives while a statement runs). BENCH_AUDIT_PROFILE=<dir> writes a CPU profile of each audit process there.
// Prints one JSON object: per round the code, records/s, CPU ms per record (audit, its PostgreSQL backends), the
// statements audit ran, the load average.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import { createJetStreamBus, newEnvelope } from '@switchboard/events'
import { createRootLogger } from '@switchboard/platform'
import { deleteNatsStreams, dropPgSchema } from '@switchboard/testing'

const PG_URL = 'postgres://postgres@127.0.0.1:5432/test'
const NATS_URL = 'nats://127.0.0.1:4222'
// The script's settings, read once here (it is its own main): records per round, fixed rate, rounds, profile dir.
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 20_000)
const WARM_UP = 2_000
const IN_FLIGHT = 256
/** records/s published at a fixed rate (open loop) instead of as fast as JetStream takes them: 0 */
const RATE = Number(process.env.BENCH_AUDIT_RATE ?? 0)
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 2)
/** a directory: a CPU profile of each audit process */
const PROFILE = process.env.BENCH_AUDIT_PROFILE
const TICK_MS = 10 // /proc/<pid>/stat counts CPU in 1/100 s

const codes = process.argv.slice(2).map((arg) => {
  const [name, main] = arg.split('=')
  if (!name || !main) throw new Error(`expected name=path/to/main.ts, got ${arg}`)
  return { name, main }
})

const psql = (query: string) =>
  execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'test', '-Atc', query], { encoding: 'utf8' }).trim()
const cpuTicks = (pid: number | string): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12]) // utime + stime
  } catch {
    return 0 // gone
  }
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function auditRecord(i: number) {
  const words = Array.from({ length: 24 }, (_, w) => `word${(i * 7 + w) % 97}`).join(' ')
  return newEnvelope({
    type: AUDIT_RECORDED_TYPE,
    tenant_id: `tenant${i % 4}`,
    workspace_id: 'main',
    actor: { user_id: `agent${i % 16}`, kind: 'agent' },
    data: {
      actor_user_id: `agent${i % 16}`,
      principal_kind: 'agent',
      action: 'sessions.message',
      resource_type: 'sessions',
      resource_id: `session${i % 500}`,
      route: '/api/sessions/:id/messages',
      method: 'POST',
      status_code: 201,
      success: true,
      request_id: `req-${i}`,
      client_ip: '10.0.0.7',
      user_agent: 'Mozilla/5.0 (bench)',
      request_json: { content: words, kind: 'text' },
      before_json: null,
      after_json: { id: `msg-${i}`, content: words, sender: 'agent' },
    },
  })
}

async function round(code: { name: string; main: string }, n: number) {
  const id = `abench${Date.now().toString(36)}`
  const port = 18_600 + n
  const flags = PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, `--cpu-prof-name=${code.name}-${n}.cpuprofile`]
    : []
  const child: ChildProcess = spawn(process.execPath, [...flags, code.main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INTERNAL_SECRET: 'internal-secret-for-the-audit-bench-0123456789',
      DATABASE_URL: PG_URL,
      DB_SCHEMA: id,
      NATS_URL,
      NATS_PREFIX: id,
      CACHE_PREFIX: `${id}:`,
      AUDIT_RETENTION_ENABLED: 'false',
      PGAPPNAME: id,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const logger = createRootLogger({ level: 'silent' })
  const bus = await createJetStreamBus({ url: NATS_URL, prefix: id, logger })
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) break
      if (i > 600) throw new Error('audit did not get ready')
      await sleep(100)
    }
    const count = () => Number(psql(`select count(*) from "${id}".audit_logs`))
    const publish = async (from: number, to: number, perSecond = 0) => {
      if (perSecond > 0) {
        // open loop at a fixed rate: a slice every 10 ms, each published without waiting for the previous ones
        const slice = perSecond / 100
        const t0 = performance.now()
        const pending: Promise<unknown>[] = []
        for (let i = from, k = 1; i < to; k++) {
          const upTo = Math.min(to, from + Math.round(k * slice))
          for (; i < upTo; i++) pending.push(bus.publish('audit.conversations.recorded', auditRecord(i)))
          const wait = t0 + k * 10 - performance.now()
          if (wait > 0) await sleep(wait)
        }
        await Promise.all(pending)
        return
      }
      let next = from
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < to) {
            const i = next++
            await bus.publish('audit.conversations.recorded', auditRecord(i))
          }
        }),
      )
    }
    const drained = async (total: number) => {
      for (;;) {
        if (count() >= total) return
        await sleep(100)
      }
    }
    await publish(0, WARM_UP)
    await drained(WARM_UP)
    const queries = async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      return [...text.matchAll(/^db_queries_total\{[^}]*\} (\d+)/gm)].reduce((a, m) => a + Number(m[1]), 0)
    }
    const backends = () => psql(`select pid from pg_stat_activity where application_name = '${id}'`).split('\n')
    const before = {
      load: load(),
      audit: cpuTicks(child.pid!),
      queries: await queries(),
      pg: new Map<string, number>(),
    }
    for (const pid of backends()) before.pg.set(pid, cpuTicks(pid))
    const started = performance.now()
    await publish(WARM_UP, WARM_UP + EVENTS, RATE)
    await drained(WARM_UP + EVENTS)
    const wall = performance.now() - started
    const audit = cpuTicks(child.pid!) - before.audit
    let pgTicks = 0
    for (const pid of new Set([...before.pg.keys(), ...backends()]))
      pgTicks += cpuTicks(pid) - (before.pg.get(pid) ?? 0)
    const statements = (await queries()) - before.queries
    return {
      code: code.name,
      records: EVENTS,
      rate: RATE || 'as fast as published',
      records_per_s: Math.round((EVENTS / wall) * 1000),
      audit_cpu_ms_per_record: Number(((audit * TICK_MS) / EVENTS).toFixed(4)),
      pg_backends_cpu_ms_per_record: Number(((pgTicks * TICK_MS) / EVENTS).toFixed(4)),
      audit_statements_per_record: Number((statements / EVENTS).toFixed(4)),
      load_before: before.load,
      load_after: load(),
    }
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    await bus.close()
    await dropPgSchema(PG_URL, id).catch(() => undefined)
    await deleteNatsStreams(NATS_URL, id).catch(() => undefined)
  }
}

const results = []
for (let r = 0; r < ROUNDS; r++) {
  for (const code of codes) {
    const result = await round(code, results.length)
    console.error(JSON.stringify(result))
    results.push(result)
  }
}
console.log(JSON.stringify({ events_per_round: EVENTS, warm_up: WARM_UP, in_flight: IN_FLIGHT, results }, null, 2))
