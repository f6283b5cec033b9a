// The statistics bench's events (statistics.bench.ts, figures 3 and 5): the real contracts' events it publishes onto
// the fleet's JetStream — a burst for the projection's throughput, the whole world for the rebuild — and how fast
// the statistics replica applies them.
import type { startFleet } from '@switchboard/cli'
import { ConversationEvents, type EventDef, TicketEvents } from '@switchboard/contracts'
import { type createJetStreamBus, newEnvelope } from '@switchboard/events'
import { type Kysely, sql } from 'kysely'
import { CATEGORIES, DAYS, PRIORITIES, TENANTS, WORKSPACE, type WorldSize } from './statistics-world.ts'

type Bus = Awaited<ReturnType<typeof createJetStreamBus>>

export type BenchEvent = { def: EventDef; data: unknown; tenant_id?: string }

/** A ticket's three events: created (open), assigned to an agent, resolved `resolvedAfterMs` after `created_at`. */
function* ticketEvents(
  ticket_id: string,
  i: number,
  created_at: string,
  resolvedAfterMs: number,
  tenant_id?: string,
): Generator<BenchEvent> {
  const scope = tenant_id ? { tenant_id } : {}
  const facts = {
    ticket_id,
    customer_id: 'u-c1',
    agent_id: null as string | null,
    category: CATEGORIES[i % 5],
    priority: PRIORITIES[i % 4],
    status: 'open',
    source: 'web',
    created_at,
  }
  yield { def: TicketEvents.created, data: facts, ...scope }
  const assigned = { ...facts, agent_id: `u-a${3 * (i % 10) + 1}`, status: 'assigned' }
  yield { def: TicketEvents.updated, data: { ticket: assigned, changed: ['agent_id'] }, ...scope }
  const resolved_at = new Date(Date.parse(created_at) + resolvedAfterMs).toISOString()
  const change = { ticket_id, from: 'assigned', to: 'resolved', resolved_at, closed_at: null }
  yield { def: TicketEvents.statusChanged, data: change, ...scope }
}

const sessionCreated = (session_id: string, started_at: string, tenant_id?: string): BenchEvent => ({
  def: ConversationEvents.sessionCreated,
  data: {
    session_id,
    status: 'active',
    channel: 'web',
    subject: '',
    customer_id: 'u-c1',
    visitor_id: null,
    agent_id: null,
    ticket_id: null,
    started_at,
    last_message_at: null,
    ended_at: null,
  },
  ...(tenant_id ? { tenant_id } : {}),
})

const messageCreated = (
  message_id: string,
  session_id: string,
  seq: number,
  created_at: string,
  tenant_id?: string,
): BenchEvent => ({
  def: ConversationEvents.messageCreated,
  data: {
    message_id,
    session_id,
    sender: 'customer',
    sender_id: 'u-c1',
    kind: 'text',
    content: 'bench',
    metadata: {},
    created_at,
    seq,
    session_status: 'active',
    agent_id: null,
  },
  ...(tenant_id ? { tenant_id } : {}),
})

/**
 * `events` events, all of tenant bench-t2 and of the last day: a third tickets' (created, assigned, resolved), the
 * rest conversations' (a session created per 29 messages); ids start with `tag`.
 */
export function projectionEvents(events: number, tag: string): BenchEvent[] {
  const now = Date.now()
  const iso = (i: number) => new Date(now - 86_400_000 + (i % 86_000) * 1000).toISOString()
  const list: BenchEvent[] = []
  const tickets = Math.floor(events / 3 / 3)
  for (let i = 0; i < tickets; i++) list.push(...ticketEvents(`${tag}t-${i}`, i, iso(i), 600_000))
  for (let i = 0; list.length < events; i++) {
    const session = `${tag}s-${Math.floor(i / 30)}`
    list.push(i % 30 === 0 ? sessionCreated(session, iso(i)) : messageCreated(`${tag}m-${i}`, session, i, iso(i)))
  }
  return list
}

/**
 * The loaded world's tickets (3 events each), sessions and messages (the world's messages spread over its sessions)
 * as events over its 365 days and 3 tenants, generated as they are published.
 */
export function* worldAsEvents(o: WorldSize): Generator<BenchEvent> {
  const end = Date.now()
  const span = DAYS * 86_400_000
  const iso = (i: number, n: number) => new Date(end - span + Math.floor((i * span) / n)).toISOString()
  for (let i = 0; i < o.tickets; i++)
    yield* ticketEvents(`wt-${i}`, i, iso(i, o.tickets), 3_600_000, TENANTS[i % TENANTS.length])
  const perSession = Math.max(1, Math.round(o.messages / o.sessions))
  for (let s = 0; s < o.sessions; s++) {
    const tenant_id = TENANTS[s % TENANTS.length]
    const session_id = `ws-${s}`
    const started_at = iso(s, o.sessions)
    yield sessionCreated(session_id, started_at, tenant_id)
    for (let m = 0; m < perSession; m++) {
      const created_at = new Date(Date.parse(started_at) + m * 30_000).toISOString()
      yield messageCreated(`wm-${s}-${m}`, session_id, m + 1, created_at, tenant_id)
    }
  }
}

/** Publishes `events` (a list or a generator) onto JetStream, 256 in flight; answers the seconds it took. */
export async function publishAll(bus: Bus, events: Iterable<BenchEvent>): Promise<number> {
  const actor = { user_id: 'bench', kind: 'service' as const }
  const started = performance.now()
  const next = events[Symbol.iterator]()
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      for (let e = next.next(); !e.done; e = next.next()) {
        const { def, data, tenant_id = TENANTS[1]! } = e.value
        const envelope = newEnvelope({ type: def.type, tenant_id, workspace_id: WORKSPACE, actor, data })
        await bus.publish(def.type, envelope)
      }
    }),
  )
  return (performance.now() - started) / 1000
}

/** `events`, calling `onEach` for each one taken. */
export function* countedAs<T>(events: Iterable<T>, onEach: () => void): Generator<T> {
  for (const e of events) {
    onEach()
    yield e
  }
}

const PROJECTED = ['statistics-tickets', 'statistics-conversations']

/**
 * Waits until the two projections' inbox holds `count` rows processed since `since`, and the lag endpoint says
 * caught up; answers when the last of them was processed and when /lag first said caught up (ms since the epoch).
 */
async function untilApplied(db: Kysely<any>, gateway: string, token: string, since: Date, count: number) {
  const started = performance.now()
  let caughtAt = Number.NaN
  for (;;) {
    const applied = await sql<{ n: string; last: Date | null }>`
      select count(*) as n, max(processed_at) as last from inbox
      where consumer in (${sql.join(PROJECTED)}) and processed_at >= ${since.toISOString()}
    `.execute(db)
    const row = applied.rows[0]!
    const lag = await fetch(new URL('/api/statistics/lag', gateway), { headers: { authorization: `Bearer ${token}` } })
    const caught = lag.status === 200 && ((await lag.json()) as { caught_up: boolean }).caught_up
    if (caught && Number.isNaN(caughtAt)) caughtAt = Date.now()
    if (Number(row.n) >= count && caught) return { lastAt: new Date(row.last!).getTime(), caughtAt }
    if (performance.now() - started > 600_000) throw new Error(`projection: ${row.n} of ${count} applied in 10 min`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * The live figure: `events` events published at once (256 in flight) while the replica projects them, timed from the
 * first publish to the last inbox row of the two projections; the lag endpoint is polled until it says caught up.
 */
export async function projectionThroughput(db: Kysely<any>, bus: Bus, gateway: string, token: string, events: number) {
  const list = projectionEvents(events, 'p')
  const t0 = new Date()
  const publish_s = await publishAll(bus, list)
  const { lastAt, caughtAt } = await untilApplied(db, gateway, token, t0, list.length)
  const applied_s = (lastAt - t0.getTime()) / 1000
  const lag_caught_up_s = (caughtAt - t0.getTime()) / 1000
  return { events: list.length, publish_s, applied_s, events_per_s: list.length / applied_s, lag_caught_up_s }
}

/**
 * "From JetStream into PostgreSQL": the statistics replicas are paused (SIGSTOP) while `events` events are
 * published, so they wait in the stream; timed from the replicas' resumption (SIGCONT) to the last inbox row.
 */
export async function backlogThroughput(
  db: Kysely<any>,
  bus: Bus,
  fleet: Awaited<ReturnType<typeof startFleet>>,
  gateway: string,
  token: string,
  events: number,
) {
  const replicas = fleet.children.filter((c) => c.unit === 'statistics')
  const list = projectionEvents(events, 'b')
  const t0 = new Date()
  for (const r of replicas) r.process.kill('SIGSTOP')
  let publish_s: number
  let resumedAt: number
  try {
    publish_s = await publishAll(bus, list)
  } finally {
    resumedAt = Date.now()
    for (const r of replicas) r.process.kill('SIGCONT')
  }
  const { lastAt } = await untilApplied(db, gateway, token, t0, list.length)
  const applied_s = (lastAt - resumedAt) / 1000
  return { events: list.length, publish_s, applied_s, events_per_s: list.length / applied_s }
}
